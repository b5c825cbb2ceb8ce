/**
 * An advisory lock the kernel owns: flock(2) on POSIX, an open handle with no
 * sharing on Windows. The kernel drops it when the process dies (kill -9,
 * a crash), so a lock can never go stale and nothing has to be deleted by
 * hand. Node has no flock, so it is reached through bun:ffi (libc.ts).
 */
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { kernel32, libc } from "./libc.ts";

export type TryLockResult = { kind: "held"; lock: HeldFileLock } | { kind: "busy" } | { kind: "error"; reason: string };

export interface HeldFileLock {
  /** Replaces the lock file's content (only the holder writes it). */
  write(content: string): void;
  /** Empties the file and lets go of the lock; the file itself stays, since deleting a flock'ed file races with the next locker. */
  release(): void;
}

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
/** EWOULDBLOCK: 11 on Linux, 35 on macOS and the BSDs. */
const CONTENTION_ERRNO = process.platform === "linux" ? 11 : 35;

function tryPosixLock(path: string): TryLockResult {
  const posix = libc();
  if (!posix) return { kind: "error", reason: "the C library could not be opened for flock" };
  const fd = openSync(path, "a+");
  if (posix.flock(fd, LOCK_EX | LOCK_NB) !== 0) {
    const errno = posix.errno();
    closeSync(fd);
    return errno === CONTENTION_ERRNO ? { kind: "busy" } : { kind: "error", reason: `flock failed with errno ${errno}` };
  }
  return {
    kind: "held",
    lock: {
      write(content) {
        ftruncateSync(fd, 0);
        writeSync(fd, content, 0);
      },
      release() {
        ftruncateSync(fd, 0);
        posix.flock(fd, LOCK_UN);
        closeSync(fd);
      },
    },
  };
}

const ERROR_SHARING_VIOLATION = 32;

/**
 * Windows: a handle opened with share mode 0 keeps every other opener out
 * until it is closed, which the kernel does when the process ends. The holder
 * writes its details to a sibling file, since nobody else can read this one.
 * Not run on this project's Linux CI; built from the Win32 documentation.
 */
function tryWindowsLock(path: string): TryLockResult {
  const k32 = kernel32();
  if (!k32) return { kind: "error", reason: "kernel32 could not be opened" };
  const opened = k32.openExclusive(path);
  if ("error" in opened) {
    return opened.error === ERROR_SHARING_VIOLATION ? { kind: "busy" } : { kind: "error", reason: `CreateFileW failed with error ${opened.error}` };
  }
  const { handle } = opened;
  const info = `${path}.info`;
  return {
    kind: "held",
    lock: {
      write(content) {
        const fd = openSync(info, "w");
        writeSync(fd, content);
        closeSync(fd);
      },
      release() {
        const fd = openSync(info, "w");
        closeSync(fd);
        k32.closeHandle(handle);
      },
    },
  };
}

/** Tries once, without waiting: a held lock, "busy" when another holder has it, or why locking itself failed. */
export function tryLockFile(path: string): TryLockResult {
  try {
    return process.platform === "win32" ? tryWindowsLock(path) : tryPosixLock(path);
  } catch (error) {
    return { kind: "error", reason: (error as Error).message };
  }
}

/** Where a holder's details can be read by a process that was refused. */
export function lockInfoPath(path: string): string {
  return process.platform === "win32" ? `${path}.info` : path;
}
