/**
 * Environment variables for native libraries. A native library reads the C
 * environment (getenv), and Bun's JavaScript environment object is a copy of
 * it: assigning there does not reach a library loaded afterwards (measured: LanceDB
 * ignored LANCE_CPU_THREADS and LANCEDB_LOG set that way). So the default is
 * written with setenv(3) through bun:ffi (libc.ts), never over a value the user set.
 */
import { kernel32, libc } from "./libc.ts";

/** Sets name=value in the process's C environment unless it is already set there; returns whether it wrote. */
export function setNativeEnvDefault(name: string, value: string): boolean {
  try {
    const system = process.platform === "win32" ? kernel32() : libc();
    // No C library to reach (an unusual platform): the library keeps its own default.
    if (!system || system.hasEnv(name)) return false;
    const written = system.setEnv(name, value, false);
    if (written) process.env[name] = value;
    return written;
  } catch {
    return false;
  }
}
