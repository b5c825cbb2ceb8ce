/**
 * Every call this program makes into the C library through bun:ffi, from
 * one handle opened once: flock and errno for kernel locks (file-lock.ts),
 * getenv and setenv for native libraries' environment (native-env.ts), and
 * glibc's mallopt and malloc_trim for their heap (native-heap.ts). Windows
 * has no libc to call: its counterparts are in kernel32, opened here too.
 */
import { dlopen, FFIType, ptr, read } from "bun:ffi";

export interface Libc {
  flock(fd: number, operation: number): number;
  /** This thread's errno, read right after a failed call. */
  errno(): number;
  /** getenv(3) != NULL. */
  hasEnv(name: string): boolean;
  /** setenv(3); true when it succeeded. */
  setEnv(name: string, value: string, overwrite: boolean): boolean;
  /** glibc only: null where the C library has no such tuning (macOS). */
  malloc: { mallopt(parameter: number, value: number): number; trim(pad: number): number } | null;
}

/** A NUL-terminated copy of a string; the caller keeps it in a variable until the call returns (a collected buffer's pointer dangles). */
const cString = (text: string, encoding: "utf8" | "utf16le" = "utf8") => Buffer.from(`${text}\0`, encoding);

const CORE = {
  flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  getenv: { args: [FFIType.ptr], returns: FFIType.ptr },
  setenv: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
} as const;
const GLIBC_MALLOC = {
  mallopt: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  malloc_trim: { args: [FFIType.u64], returns: FFIType.i32 },
} as const;

function openLibc(): Libc | null {
  if (process.platform === "win32") return null;
  const linux = process.platform === "linux";
  const path = linux ? "libc.so.6" : "libc.dylib";
  // glibc and musl name errno's address __errno_location; Darwin names it __error.
  const errnoName = linux ? "__errno_location" : "__error";
  const errno = { [errnoName]: { args: [], returns: FFIType.ptr } } as const;
  let symbols: Record<string, (...args: any[]) => any>;
  let glibc = linux;
  try {
    symbols = dlopen(path, linux ? { ...CORE, ...errno, ...GLIBC_MALLOC } : { ...CORE, ...errno }).symbols;
  } catch {
    if (!linux) return null;
    // A C library named libc.so.6 without mallopt is not glibc: its own heap policy stands.
    try {
      symbols = dlopen(path, { ...CORE, ...errno }).symbols;
      glibc = false;
    } catch {
      return null;
    }
  }
  return {
    flock: (fd, operation) => symbols.flock!(fd, operation),
    errno: () => {
      const address = symbols[errnoName]!();
      return address ? read.i32(address, 0) : -1;
    },
    hasEnv: (name) => {
      const cName = cString(name);
      return Boolean(symbols.getenv!(ptr(cName)));
    },
    setEnv: (name, value, overwrite) => {
      const [cName, cValue] = [cString(name), cString(value)];
      return symbols.setenv!(ptr(cName), ptr(cValue), overwrite ? 1 : 0) === 0;
    },
    malloc: glibc ? { mallopt: (parameter, value) => symbols.mallopt!(parameter, value), trim: (pad) => symbols.malloc_trim!(pad) } : null,
  };
}

let opened: Libc | null | undefined;

/** The C library, or null on Windows or where it cannot be opened (an unusual platform: callers then keep defaults). */
export function libc(): Libc | null {
  if (opened === undefined) opened = openLibc();
  return opened;
}

export interface Kernel32 {
  /** CreateFileW with share mode 0 (OPEN_ALWAYS, read and write): the handle, or null with GetLastError's code. */
  openExclusive(path: string): { handle: bigint } | { error: number };
  closeHandle(handle: bigint): void;
  hasEnv(name: string): boolean;
  /** SetEnvironmentVariableW; true when it succeeded. */
  setEnv(name: string, value: string): boolean;
}

const GENERIC_READ_WRITE = 0xc0000000;
const OPEN_ALWAYS = 4;
const INVALID_HANDLE = 0xffffffffffffffffn;

function openKernel32(): Kernel32 | null {
  if (process.platform !== "win32") return null;
  const k32 = dlopen("kernel32.dll", {
    CreateFileW: { args: [FFIType.ptr, FFIType.u32, FFIType.u32, FFIType.ptr, FFIType.u32, FFIType.u32, FFIType.ptr], returns: FFIType.u64 },
    CloseHandle: { args: [FFIType.u64], returns: FFIType.i32 },
    GetLastError: { args: [], returns: FFIType.u32 },
    GetEnvironmentVariableW: { args: [FFIType.ptr, FFIType.ptr, FFIType.u32], returns: FFIType.u32 },
    SetEnvironmentVariableW: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  }).symbols;
  return {
    openExclusive(path) {
      const wide = cString(path, "utf16le");
      const handle = BigInt(k32.CreateFileW(ptr(wide), GENERIC_READ_WRITE, 0, null, OPEN_ALWAYS, 0, null));
      return handle === INVALID_HANDLE ? { error: k32.GetLastError() } : { handle };
    },
    closeHandle: (handle) => void k32.CloseHandle(handle),
    hasEnv(name) {
      const wide = cString(name, "utf16le");
      return k32.GetEnvironmentVariableW(ptr(wide), null, 0) !== 0;
    },
    setEnv(name, value) {
      const [wName, wValue] = [cString(name, "utf16le"), cString(value, "utf16le")];
      return k32.SetEnvironmentVariableW(ptr(wName), ptr(wValue)) !== 0;
    },
  };
}

let kernel: Kernel32 | null | undefined;

/** Windows' kernel32 (file locks and the process environment), or null elsewhere. Not run on this project's Linux CI; built from the Win32 documentation. */
export function kernel32(): Kernel32 | null {
  if (kernel !== undefined) return kernel;
  try {
    kernel = openKernel32();
  } catch {
    kernel = null;
  }
  return kernel;
}
