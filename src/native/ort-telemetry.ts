/**
 * Keeps ONNX Runtime's usage telemetry off; a module of its own so that
 * main.ts can call it first without loading anything else.
 *
 * ONNX Runtime 1.30's Linux and macOS libraries carry Microsoft's telemetry
 * client (1DS). Measured here: a process that opens a session writes a device
 * id and an event cache under ~/.cache/Microsoft/DeveloperTools/.onnxruntime
 * and a log /tmp/mat-debug-<pid>.log, and queues usage events for upload.
 * Nothing may leave the machine unasked, so ORT_DISABLE_TELEMETRY=1, ORT's
 * full opt-out on those systems, goes into the C environment before ORT
 * creates its environment; with it set none of those files appear. A value
 * the user set is kept. main.ts calls this first, on the main thread, before
 * any native library has threads that read the environment; the call in
 * loadOnnxRuntime (onnxruntime.ts) covers processes that load the model
 * another way (tests, benchmarks). Windows builds report through the
 * system's own event tracing instead, which this variable does not govern.
 */
import { setNativeEnvDefault } from "./native-env.ts";

export function keepOrtTelemetryOff(): void {
  setNativeEnvDefault("ORT_DISABLE_TELEMETRY", "1");
}
