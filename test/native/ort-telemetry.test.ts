/**
 * ONNX Runtime's own telemetry stays off: ORT 1.30's Linux and macOS
 * libraries write a device id, an event cache and a log, and queue usage
 * events for upload, unless ORT_DISABLE_TELEMETRY is set in the C environment
 * before ORT starts (src/native/ort-telemetry.ts). Each case runs in a fresh
 * process with a HOME of its own, since ORT reads the variable once.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT, TINY_MODEL, ortTelemetryTraces, runScriptInFreshProcess, tempDir } from "../helpers.ts";

describe("ONNX Runtime's telemetry", () => {
  test("a process that loads the model and embeds leaves no device id, event cache or telemetry log, and says why in its environment", () => {
    const home = tempDir("minirag-ort-home-");
    // Only what the child needs: the runner's own environment may already carry the setting.
    const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CACHE_HOME: join(home, ".cache"), HF_ENDPOINT: "http://127.0.0.1:9" };
    const { output, stderr } = runScriptInFreshProcess<{ pid: number; width: number; setting: string | null }>(
      `import { CString, dlopen, FFIType, ptr } from "bun:ffi";
import { OnnxEmbedder } from ${JSON.stringify(join(REPO_ROOT, "src/embed/embedder.ts"))};
import { resolveModelFolder } from ${JSON.stringify(join(REPO_ROOT, "src/embed/model-folder.ts"))};
const embedder = await OnnxEmbedder.load(await resolveModelFolder(${JSON.stringify(TINY_MODEL)}, { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" }));
const [vector] = await embedder.embed(["a text to embed"]);
// ORT's client writes its files in the background: give it time to, were it on.
await Bun.sleep(500);
// The C environment, which ORT reads (the model thread's JavaScript copy is not this thread's).
const libc = dlopen(process.platform === "linux" ? "libc.so.6" : "libc.dylib", { getenv: { args: [FFIType.ptr], returns: FFIType.ptr } });
const found = libc.symbols.getenv(ptr(Buffer.from("ORT_DISABLE_TELEMETRY\\0")));
console.log(JSON.stringify({ pid: process.pid, width: vector!.length, setting: found ? new CString(found).toString() : null }));
process.exit(0);`,
      env,
    );
    expect(stderr).toBe("");
    const { pid, width, setting } = output;
    expect(width).toBe(32);
    expect(ortTelemetryTraces(home, pid)).toEqual([]);
    expect(setting).toBe("1");
  });
});
