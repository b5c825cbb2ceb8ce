/**
 * When the conversion worker lets its OCR workers go (ocr/pool.ts keeps them
 * for a whole job): at the job's end, and before a large file that needs no
 * OCR (large-input.ts), but never while a conversion is under way. The worker
 * handles a message while another's conversion awaits (an ingest_url beside a
 * sync's file), and a scan whose workers were stopped under it failed.
 */
import { releaseOcrPool } from "../ocr/pool.ts";
import { largeWithoutOcr } from "./large-input.ts";

export class OcrKeeper {
  private running = 0;
  /** A release asked for while conversions ran: done when the last of them ends. */
  private releaseDue = false;

  /** A conversion starts. */
  begin(path: string, bytes: Uint8Array): void {
    if (this.running === 0 && largeWithoutOcr(path, bytes)) releaseOcrPool();
    this.running++;
  }

  /** A conversion ended, however it ended. */
  end(): void {
    this.running--;
    if (this.running === 0 && this.releaseDue) {
      this.releaseDue = false;
      releaseOcrPool();
    }
  }

  /** The job ended: the workers go now, or when the conversions under way end. */
  release(): void {
    if (this.running === 0) releaseOcrPool();
    else this.releaseDue = true;
  }
}
