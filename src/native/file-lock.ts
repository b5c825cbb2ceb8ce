/**
 * An advisory lock the kernel owns: flock(2) on POSIX, an open handle with no
 * sharing on Windows. The kernel drops it when the process dies (kill -9,
 * a crash), so a lock can never go stale and nothing has to be deleted by
 * hand. Node has no flock, so it is reached through bun:ffi.
 */
import { dlopen, FFIType, read, ptr } from "bun:ffi";
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";

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

let posix: ReturnType<typeof loadPosix> | undefined;

function loadPosix() {
  const linux = process.platform === "linux";
  const lib = dlopen(linux ? "libc.so.6" : "libc.dylib", {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    // glibc and musl name errno's address __errno_location; Darwin names it __error.
    [linux ? "__errno_location" : "__error"]: { args: [], returns: FFIType.ptr },
  });
  const errnoAddress = (lib.symbols as Record<string, () => number | null>)[linux ? "__errno_location" : "__error"]!;
  return {
    flock: lib.symbols.flock as (fd: number, op: number) => number,
    errno: () => {
      const address = errnoAddress();
      return address ? read.i32(address as never, 0) : -1;
    },
  };
}

function tryPosixLock(path: string): TryLockResult {
  posix ??= loadPosix();
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
        posix!.flock(fd, LOCK_UN);
        closeSync(fd);
      },
    },
  };
}

const GENERIC_READ_WRITE = 0xc0000000;
const OPEN_ALWAYS = 4;
const ERROR_SHARING_VIOLATION = 32;
const INVALID_HANDLE = 0xffffffffffffffffn;

let kernel32: ReturnType<typeof loadKernel32> | undefined;

function loadKernel32() {
  return dlopen("kernel32.dll", {
    CreateFileW: { args: [FFIType.ptr, FFIType.u32, FFIType.u32, FFIType.ptr, FFIType.u32, FFIType.u32, FFIType.ptr], returns: FFIType.u64 },
    CloseHandle: { args: [FFIType.u64], returns: FFIType.i32 },
    GetLastError: { args: [], returns: FFIType.u32 },
  });
}

/**
 * Windows: a handle opened with share mode 0 keeps every other opener out
 * until it is closed, which the kernel does when the process ends. The holder
 * writes its details to a sibling file, since nobody else can read this one.
 * Not run on this project's Linux CI; built from the Win32 documentation.
 */
function tryWindowsLock(path: string): TryLockResult {
  // Loaded once: a waiting caller tries every few hundred milliseconds.
  const k32 = (kernel32 ??= loadKernel32());
  const wide = Buffer.from(`${path}\0`, "utf16le");
  const handle = BigInt(k32.symbols.CreateFileW(ptr(wide), GENERIC_READ_WRITE, 0, null, OPEN_ALWAYS, 0, null));
  if (handle === INVALID_HANDLE) {
    const code = k32.symbols.GetLastError();
    return code === ERROR_SHARING_VIOLATION ? { kind: "busy" } : { kind: "error", reason: `CreateFileW failed with error ${code}` };
  }
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
        k32.symbols.CloseHandle(handle);
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
