/** Loads @lancedb/lancedb once, pointing napi-rs at lib/ inside a compiled binary. */
import { AppError } from "../errors.ts";
import { lancedbPlatformTag, nativeLibDir, nativeLibFile } from "./lib-dir.ts";

type LanceDb = typeof import("@lancedb/lancedb");
let loading: Promise<LanceDb> | undefined;

export function loadLanceDb(): Promise<LanceDb> {
  loading ??= (async () => {
    // LanceDB logs warnings such as "No existing dataset" to stderr on every new table.
    process.env.LANCEDB_LOG ??= "error";
    const libDir = nativeLibDir();
    if (!libDir) return import("@lancedb/lancedb");
    // napi-rs checks this variable before any of its own lookups.
    process.env.NAPI_RS_NATIVE_LIBRARY_PATH = nativeLibFile(libDir, `lancedb.${lancedbPlatformTag()}.node`);
    try {
      return await import("@lancedb/lancedb");
    } catch (error) {
      throw new AppError(
        "NATIVE_LIBRARY",
        `Could not load LanceDB's native library: ${(error as Error).message}`,
        `Reinstall from the release archive for this system (${process.platform}-${process.arch}), keeping lib/ next to the executable, or point MINIRAG_LIB_DIR at such a lib/.`,
      );
    } finally {
      delete process.env.NAPI_RS_NATIVE_LIBRARY_PATH;
    }
  })();
  return loading;
}
