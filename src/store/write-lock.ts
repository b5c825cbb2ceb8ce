/**
 * A short kernel lock beside the index around "are these sources new? then
 * append" (table-writes.ts), so two processes writing the same new source at
 * once cannot both append it: the second waits, finds the first's rows, and
 * swaps them out by merge as any re-ingest does.
 */
import { join } from "node:path";
import { tryLockFile } from "../native/file-lock.ts";

const WRITE_LOCK = ".write.lock";
/** A commit takes milliseconds to seconds; past this a writer goes on unlocked rather than hang. */
const WAIT_MS = 120_000;

export async function withWriteLock<T>(dbPath: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const result = tryLockFile(join(dbPath, WRITE_LOCK));
    if (result.kind === "held") {
      try {
        return await fn();
      } finally {
        result.lock.release();
      }
    }
    // A file system without locks: go on unlocked, as the create lock does.
    if (result.kind === "error" || Date.now() > deadline) return fn();
    await Bun.sleep(5);
  }
}
