/**
 * A file's bytes mapped into memory where the platform allows it, read where
 * it does not. Mapped bytes are the page cache's own: nothing is copied, and
 * a model file's hundreds of megabytes cost nothing until their pages are
 * touched. Only for files that are replaced by a rename, never written or cut
 * short in place (a mapping keeps the old file after a rename; a file cut
 * short under it faults on the lost pages): model files, and the optimised
 * graphs this program alone writes, by rename. Windows cannot delete or
 * replace a mapped file, so there it is read.
 */
import { readFileSync } from "node:fs";

export function mappedFile(path: string): Uint8Array {
  return process.platform === "win32" ? readFileSync(path) : Bun.mmap(path, { shared: false });
}
