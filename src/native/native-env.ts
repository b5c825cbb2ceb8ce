/**
 * Environment variables for native libraries. A native library reads the C
 * environment (getenv), and Bun's JavaScript environment object is a copy of
 * it: assigning there does not reach a library loaded afterwards (measured: LanceDB
 * ignored LANCE_CPU_THREADS and LANCEDB_LOG set that way). So the default is
 * written with setenv(3) through bun:ffi, never over a value the user set.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";

/** Sets name=value in the process's C environment unless it is already set there; returns whether it wrote. */
export function setNativeEnvDefault(name: string, value: string): boolean {
  try {
    if (process.platform === "win32") return setWindows(name, value);
    const libc = dlopen(process.platform === "linux" ? "libc.so.6" : "libc.dylib", {
      getenv: { args: [FFIType.cstring], returns: FFIType.ptr },
      setenv: { args: [FFIType.cstring, FFIType.cstring, FFIType.i32], returns: FFIType.i32 },
    });
    try {
      const cName = Buffer.from(`${name}\0`);
      if (libc.symbols.getenv(ptr(cName))) return false;
      const written = libc.symbols.setenv(ptr(cName), ptr(Buffer.from(`${value}\0`)), 0) === 0;
      if (written) process.env[name] = value;
      return written;
    } finally {
      libc.close(); // also when the variable was already set
    }
  } catch {
    return false; // no libc to reach (an unusual platform): the library keeps its own default
  }
}

function setWindows(name: string, value: string): boolean {
  const k32 = dlopen("kernel32.dll", {
    GetEnvironmentVariableW: { args: [FFIType.ptr, FFIType.ptr, FFIType.u32], returns: FFIType.u32 },
    SetEnvironmentVariableW: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  });
  const wName = Buffer.from(`${name}\0`, "utf16le");
  if (k32.symbols.GetEnvironmentVariableW(ptr(wName), null, 0) !== 0) return false;
  const written = k32.symbols.SetEnvironmentVariableW(ptr(wName), ptr(Buffer.from(`${value}\0`, "utf16le"))) !== 0;
  if (written) process.env[name] = value;
  return written;
}
