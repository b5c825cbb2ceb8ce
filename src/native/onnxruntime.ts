/**
 * Loads onnxruntime-node once. Inside a compiled binary the (patched) package
 * requires its binding from ORT_NODE_BINDING_PATH; the binding's RUNPATH
 * ($ORIGIN / @loader_path) then finds libonnxruntime beside it in lib/onnxruntime/.
 */
import { AppError } from "../errors.ts";
import { nativeLibDir, nativeLibFile } from "./lib-dir.ts";
import { setNativeEnvDefault } from "./native-env.ts";

type Ort = typeof import("onnxruntime-node");
let loading: Promise<Ort> | undefined;

/**
 * ONNX Runtime 1.30's Linux and macOS libraries carry Microsoft's telemetry
 * client (1DS). Measured here: a process that opens a session writes a device
 * id and an event cache under ~/.cache/Microsoft/DeveloperTools/.onnxruntime
 * and a log /tmp/mat-debug-<pid>.log, and queues usage events for upload.
 * Nothing may leave the machine unasked, so ORT_DISABLE_TELEMETRY=1, ORT's
 * full opt-out on those systems, goes into the C environment before ORT
 * creates its environment; with it set none of those files appear. A value
 * the user set is kept. main.ts calls this first, on the main thread, before
 * any native library has threads that read the environment; the call in
 * loadOnnxRuntime covers processes that load the model another way (tests,
 * benchmarks). Windows builds report through the system's own event tracing
 * instead, which this variable does not govern.
 */
export function keepOrtTelemetryOff(): void {
  setNativeEnvDefault("ORT_DISABLE_TELEMETRY", "1");
}

export function loadOnnxRuntime(): Promise<Ort> {
  loading ??= (async () => {
    keepOrtTelemetryOff();
    const libDir = nativeLibDir();
    if (!libDir) return import("onnxruntime-node");
    process.env.ORT_NODE_BINDING_PATH = nativeLibFile(libDir, "onnxruntime", "onnxruntime_binding.node");
    try {
      return await import("onnxruntime-node");
    } catch (error) {
      throw new AppError(
        "NATIVE_LIBRARY",
        `Could not load ONNX Runtime's native library: ${(error as Error).message}`,
        `Reinstall from the release archive for this system (${process.platform}-${process.arch}), keeping lib/ next to the executable, or point MINIRAG_LIB_DIR at such a lib/.`,
      );
    } finally {
      delete process.env.ORT_NODE_BINDING_PATH;
    }
  })();
  return loading;
}
