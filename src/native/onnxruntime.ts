/**
 * Loads onnxruntime-node once. Inside a compiled binary the (patched) package
 * requires its binding from ORT_NODE_BINDING_PATH; the binding's RUNPATH
 * ($ORIGIN / @loader_path) then finds libonnxruntime beside it in lib/onnxruntime/.
 */
import { AppError } from "../errors.ts";
import { nativeLibDir, nativeLibFile } from "./lib-dir.ts";
import { keepOrtTelemetryOff } from "./ort-telemetry.ts";

type Ort = typeof import("onnxruntime-node");
let loading: Promise<Ort> | undefined;

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
