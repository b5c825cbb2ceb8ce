/**
 * Keeps a server's questions on the version they read while its watcher's
 * sync writes a newer one and the server loads that one's search structures
 * (mcp/warm-up.ts): the first question to see a watched change then finds
 * them loaded, where it had paid for loading them itself (76 ms against 32
 * warm at 5,100 documents with the e5 files). The change shows once the load
 * ends, or QUERY_HOLD_MS after the hold began, whichever is first; any other
 * write releases the hold at once, so a client's own ingest is read back in
 * its next question. Old versions outlive any hold (table-upkeep.ts prunes
 * after an hour).
 */
import { SYSTEM_CLOCK, type Clock } from "../clock.ts";

/** The longest questions stay on the held version: a long watched sync (a checkout of 2,000 files) shows its files as they commit after this. */
export const QUERY_HOLD_MS = 5_000;

export class QueryHold {
  private held: { version: number; until: number } | null = null;

  constructor(private readonly clock: Clock = SYSTEM_CLOCK) {}

  /** Questions read this version until released, or for ms at most. */
  hold(version: number, ms = QUERY_HOLD_MS): void {
    this.held = { version, until: this.clock.now() + ms };
  }

  release(): void {
    this.held = null;
  }

  /** The version a question reads when the latest is `latest`: the held one while the hold lasts and is older. */
  versionFor(latest: number): number {
    if (!this.held) return latest;
    if (this.clock.now() >= this.held.until) {
      this.held = null;
      return latest;
    }
    return Math.min(this.held.version, latest);
  }
}
