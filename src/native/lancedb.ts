/** Loads @lancedb/lancedb once, pointing napi-rs at lib/ inside a compiled binary. */
import { availableParallelism } from "node:os";
import { AppError } from "../errors.ts";
import { setNativeEnvDefault } from "./native-env.ts";
import { boundNativeHeap } from "./native-heap.ts";
import { lancedbPlatformTag, nativeLibDir, nativeLibFile } from "./lib-dir.ts";

type LanceDb = typeof import("@lancedb/lancedb");
const MIN_LANCE_CPU_THREADS = 8;
let loading: Promise<LanceDb> | undefined;

export function loadLanceDb(): Promise<LanceDb> {
  loading ??= (async () => {
    // LanceDB logs warnings such as "No existing dataset" to stderr on every new table.
    setNativeEnvDefault("LANCEDB_LOG", "error");
    // Lance sizes its CPU pool to the cores. On 2 cores, full-text index builds over 100k chunks hung with no
    // CPU used under every tokenizer setting (scripts/bench/fts-languages.ts; lance-format/lance#7423), and built
    // in 27-45 s with 8 threads. A value the user set is kept.
    setNativeEnvDefault("LANCE_CPU_THREADS", String(Math.max(MIN_LANCE_CPU_THREADS, availableParallelism())));
    // Compaction's freed buffers otherwise stay resident in glibc's arenas (native-heap.ts).
    boundNativeHeap();
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
