/**
 * The one downloader for files pinned by sha256: the embedding model's
 * files (embed/download.ts), OCR language data (ocr/tessdata-download.ts),
 * a label model (labels/model-file.ts) and the llama.cpp add-on
 * (labels/llama-addon.ts). Each file goes to `<target>.part`, resumes with a
 * Range request after a broken transfer, is checked against its sha256 (and
 * its size, where pinned: a server sending more is refused at once) and only
 * then renamed into place; a kernel lock lets one process at a time fetch a
 * given file, and progress goes to the caller's log (stderr in the product).
 */
import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, ftruncateSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { lockInfoPath, tryLockFile, type HeldFileLock } from "../native/file-lock.ts";

const ATTEMPTS = 3;
const STALL_MS = 30_000;
const LOCK_POLL_MS = 200;
/** Longer than a holder's own worst case between two received bytes: each of its ATTEMPTS waits up to STALL_MS. */
const HOLDER_STALL_MS = 2 * STALL_MS * ATTEMPTS;

/** A file to fetch and check: `size` where it is pinned (then no more is read), else the server's length is trusted for progress only. */
export interface VerifiedFile {
  url: string;
  target: string;
  sha256: string;
  size?: number;
  /** How the log names it. */
  name: string;
}

/**
 * Fetches a file into `target` through `target.part`: a broken transfer
 * resumes with a Range request and is retried ATTEMPTS times, the result is
 * checked against its sha256 and only then renamed into place. Throws an
 * Error saying what failed last; a mismatching file is never left behind.
 * `holderStallMs`: how long another process's download may go without
 * progress before this one gives up waiting for it (shorter in tests).
 */
export async function downloadVerified(file: VerifiedFile, log?: (line: string) => void, holderStallMs = HOLDER_STALL_MS): Promise<void> {
  mkdirSync(dirname(file.target), { recursive: true });
  const lockPath = `${file.target}.lock`;
  const lock = await holdDownloadLock(file, lockPath, holderStallMs, log);
  let inPlace = false;
  try {
    // Another process (the MCP server and a terminal sync on a first run) may have fetched it while this one waited.
    inPlace = existsSync(file.target) && (await sha256File(file.target)) === file.sha256;
    if (!inPlace) await fetchChecked(file, log);
    inPlace = true;
  } finally {
    lock?.release();
    // With the file in place no one takes this lock again (callers look for the file first), so the folder keeps
    // only the model's files. A process that locked the file a moment before it went finds the file there too.
    if (inPlace) removeLockFile(lockPath);
  }
}

/**
 * One downloader per file across processes: a kernel lock on `<target>.lock`
 * (native/file-lock.ts), so two processes never append to one `.part` and
 * spoil each other's checksum.
 */
function holdDownloadLock(file: VerifiedFile, path: string, stallMs: number, log?: (line: string) => void): Promise<HeldFileLock | null> {
  const part = `${file.target}.part`;
  return holdLockWhileProgressing(path, { doing: `downloading ${file.name}`, into: part, progress: () => (existsSync(part) ? statSync(part).size : -1), stallMs, log });
}

/**
 * Takes a kernel lock on `path`, waiting while another process holds it. A
 * dead holder's lock is released by the kernel; a live one that stops making
 * progress (a suspended terminal sync), as `progress` measures it in `into`, is waited
 * for until that number has not changed for stallMs, then this fails with an
 * error rather than hang. Null where the file system has no locks: the work
 * then runs unlocked, as before.
 */
export async function holdLockWhileProgressing(
  path: string,
  options: { doing: string; into?: string; progress: () => number; stallMs?: number; log?: (line: string) => void },
): Promise<HeldFileLock | null> {
  const { doing, into, progress, stallMs = HOLDER_STALL_MS, log } = options;
  let told = false;
  let seen = Number.NaN;
  let changedAt = Date.now();
  for (;;) {
    const result = tryLockFile(path);
    if (result.kind === "held") return result.lock;
    if (result.kind === "error") return null;
    if (!told) log?.(`another process is ${doing}; waiting for it to finish`);
    told = true;
    const now = progress();
    if (now !== seen) [seen, changedAt] = [now, Date.now()];
    if (Date.now() - changedAt > stallMs) {
      throw new Error(`another process has been ${doing}${into ? ` into ${into}` : ""} without progress for ${Math.round(stallMs / 1000)} s (is it suspended?); stop it or let it finish, then retry`);
    }
    await Bun.sleep(LOCK_POLL_MS);
  }
}

/** Removes a lock file once what it guarded is in place (nobody takes it again: callers look for the result first). */
export function removeLockFile(path: string): void {
  try {
    rmSync(path, { force: true });
    // Windows keeps the holder's details beside the lock (native/file-lock.ts).
    if (lockInfoPath(path) !== path) rmSync(lockInfoPath(path), { force: true });
  } catch {
    // Open in another process where that forbids deleting (Windows): it stays behind, empty and harmless.
  }
}

async function fetchChecked(file: VerifiedFile, log?: (line: string) => void): Promise<void> {
  const part = `${file.target}.part`;
  let lastError = "";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let resumed = false;
    try {
      resumed = await transfer(file, part, log);
    } catch (error) {
      lastError = (error as Error).message;
      log?.(`download of ${file.name} failed (attempt ${attempt}/${ATTEMPTS}): ${lastError}`);
      continue;
    }
    const digest = await sha256File(part);
    if (digest === file.sha256) {
      renameSync(part, file.target);
      return;
    }
    rmSync(part, { force: true });
    lastError = `checksum mismatch for ${file.name}: expected sha256 ${file.sha256}, got ${digest}`;
    log?.(lastError);
    // A resumed file may have a bad stitch: one clean try. A clean download that mismatches is refused.
    if (!resumed) break;
  }
  throw new Error(lastError);
}

/** Fetches the file into part, resuming from the bytes already there; true when it resumed. */
async function transfer(file: VerifiedFile, part: string, log?: (line: string) => void): Promise<boolean> {
  const { url } = file;
  let start = existsSync(part) ? statSync(part).size : 0;
  if (file.size !== undefined && start > file.size) {
    rmSync(part);
    start = 0;
  }
  if (start > 0 && start === file.size) return true;
  const controller = new AbortController();
  let stall = setTimeout(() => controller.abort(), STALL_MS);
  try {
    const response = await fetch(url, {
      headers: start > 0 ? { Range: `bytes=${start}-` } : {},
      signal: controller.signal,
      redirect: "follow",
    });
    if (response.status !== 200 && response.status !== 206) throw new Error(`HTTP ${response.status}`);
    if (response.status === 200) start = 0; // the server ignored the range: start over
    const fd = openSync(part, start === 0 ? "w" : "a");
    // Unpinned sizes come from the server, for progress and the short-transfer check only: the sha256 decides.
    const total = file.size ?? start + Number(response.headers.get("content-length") ?? 0);
    let received = start;
    let reported = -1;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(stall);
        stall = setTimeout(() => controller.abort(), STALL_MS);
        // A server sending more than the pinned size is not sending the pinned file: stop reading, keep none of it.
        if (file.size !== undefined && received + chunk.length > file.size) {
          ftruncateSync(fd, 0);
          throw new Error(`the server sent more than the pinned ${file.size} bytes`);
        }
        writeSync(fd, chunk);
        received += chunk.length;
        const percent = total ? Math.floor((received / total) * 10) * 10 : -1;
        if (percent !== reported) {
          reported = percent;
          log?.(`downloading ${file.name}: ${percent}% of ${(total / 1e6).toFixed(1)} MB`);
        }
      }
    } finally {
      closeSync(fd);
    }
    if (received < total) throw new Error(`connection closed after ${received} of ${total} bytes`);
    return start > 0;
  } catch (error) {
    throw controller.signal.aborted ? new Error(`no data for ${STALL_MS / 1000} s`) : error;
  } finally {
    clearTimeout(stall);
  }
}

/** The sha256 of a file, read as a stream (a model file is hundreds of MB). */
export function sha256File(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolvePromise(hash.digest("hex")));
  });
}
