/**
 * A file's bytes mapped into memory where the platform allows it, read where
 * it does not. Mapped bytes are the page cache's own: nothing is copied, and
 * reading a 120 MB file costs nothing until its pages are touched (a copy
 * took 50-80 ms). The files mapped here are only ever replaced by a rename,
 * which leaves a mapping on the old file, never written in place (a file cut
 * short under a mapping would fault on the lost pages). Windows cannot
 * delete or replace a mapped file, so there it is read.
 */
import { readFileSync } from "node:fs";

export function mappedFile(path: string): Uint8Array {
  return process.platform === "win32" ? readFileSync(path) : Bun.mmap(path, { shared: false });
}
