/**
 * ONNX Runtime's own telemetry stays off: ORT 1.30's Linux and macOS
 * libraries write a device id, an event cache and a log, and queue usage
 * events for upload, unless ORT_DISABLE_TELEMETRY is set in the C environment
 * before ORT starts (src/native/ort-telemetry.ts). Each case runs in a fresh
 * process with a HOME of its own, since ORT reads the variable once.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, TINY_MODEL, tempDir } from "../helpers.ts";

/** What ORT's telemetry client leaves behind for a process: its folder under HOME and its log in the temp folders. */
function telemetryTraces(home: string, pid: number): string[] {
  const traces = [join(home, ".cache", "Microsoft")].filter((path) => existsSync(path));
  for (const dir of new Set([tmpdir(), "/tmp"])) {
    if (existsSync(dir)) traces.push(...readdirSync(dir).filter((name) => name === `mat-debug-${pid}.log`).map((name) => join(dir, name)));
  }
  return traces;
}

describe("ONNX Runtime's telemetry", () => {
  test("a process that loads the model and embeds leaves no device id, event cache or telemetry log, and says why in its environment", () => {
    const home = tempDir("minirag-ort-home-");
    const script = join(tempDir("minirag-ort-telemetry-"), "embed.ts");
    writeFileSync(
      script,
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
    );
    // Only what the child needs: the runner's own environment may already carry the setting.
    const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CACHE_HOME: join(home, ".cache"), HF_ENDPOINT: "http://127.0.0.1:9" };
    const run = Bun.spawnSync([process.execPath, script], { env, stdout: "pipe", stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    const { pid, width, setting } = JSON.parse(run.stdout.toString().trim().split("\n").at(-1)!);
    expect(width).toBe(32);
    expect(telemetryTraces(home, pid)).toEqual([]);
    expect(setting).toBe("1");
  });
});
