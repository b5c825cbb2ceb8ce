import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { downloadVerified } from "../../src/download/verified-download.ts";
import { ensureModelFiles, snapshotDir } from "../../src/embed/download.ts";
import type { HubModel } from "../../src/embed/known-models.ts";
import { AppError } from "../../src/errors.ts";
import { REPO_ROOT, tempDir, waitFor } from "../helpers.ts";

/** A fake Hugging Face hub on 127.0.0.1 that serves files, honours Range, and can cut a transfer short. */
const files: Record<string, Uint8Array> = {
  "config.json": new TextEncoder().encode('{"hidden_size": 32}'),
  "model.onnx": Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31) % 251),
};
const requests: { path: string; range: string | null }[] = [];
let cutNextTransferOf: string | null = null;
/** Files served as a first piece, then the rest once `openGate` is called: a second downloader arrives mid-transfer. */
const gatedFiles = new Set<string>();
let openGate: () => void = () => {};
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      const name = url.pathname.split("/").pop()!;
      const range = req.headers.get("range");
      requests.push({ path: url.pathname, range });
      const body = files[name];
      if (!body) return new Response("not found", { status: 404 });
      const start = range ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
      const slice = body.subarray(start);
      const headers = { "content-length": String(slice.length), ...(range ? { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}) };
      if (cutNextTransferOf === name) {
        cutNextTransferOf = null;
        const half = slice.subarray(0, Math.floor(slice.length / 2));
        const stream = new ReadableStream({
          start(controller) {
            controller.enqueue(half);
            controller.close(); // shorter than content-length: the connection ends early
          },
        });
        return new Response(stream, { status: range ? 206 : 200, headers });
      }
      if (gatedFiles.has(name)) {
        const gate = new Promise<void>((resolve) => (openGate = resolve));
        const first = slice.subarray(0, 1000);
        const stream = new ReadableStream({
          async start(controller) {
            controller.enqueue(first);
            await gate;
            controller.enqueue(slice.subarray(first.length));
            controller.close();
          },
        });
        return new Response(stream, { status: range ? 206 : 200, headers });
      }
      return new Response(slice, { status: range ? 206 : 200, headers });
    },
  });
});
afterAll(() => server.stop(true));

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
function fakeModel(overrides: Partial<Record<string, string>> = {}): HubModel {
  return {
    id: "test/fake-model",
    repo: "test/fake-model-onnx",
    revision: "0123456789abcdef0123456789abcdef01234567",
    dimensions: 32,
    profile: { queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength: 128 },
    onnxFile: "model.onnx",
    files: Object.entries(files).map(([path, bytes]) => ({ path, size: bytes.length, sha256: overrides[path] ?? sha(bytes) })),
  };
}
const endpoint = () => `http://127.0.0.1:${server.port}`;

describe("model download from a hub", () => {
  test("downloads every file into the snapshot folder, checks it and reports progress on the log", async () => {
    const cache = tempDir();
    const lines: string[] = [];
    const dir = await ensureModelFiles(fakeModel(), cache, { endpoint: endpoint(), log: (l) => lines.push(l) });
    expect(dir).toBe(snapshotDir(cache, fakeModel()));
    expect(dir).toContain("models--test--fake-model-onnx/snapshots/0123456789abcdef");
    expect(readFileSync(join(dir, "model.onnx"))).toEqual(Buffer.from(files["model.onnx"]!));
    expect(readdirSync(dir).sort()).toEqual(["config.json", "model.onnx"]);
    expect(lines.some((l) => l.includes("model.onnx: 100%"))).toBe(true);
  });

  test("a cached model is not fetched again", async () => {
    const cache = tempDir();
    await ensureModelFiles(fakeModel(), cache, { endpoint: endpoint() });
    const before = requests.length;
    await ensureModelFiles(fakeModel(), cache, { endpoint: endpoint() });
    expect(requests.length).toBe(before);
  });

  test("a checksum mismatch is refused and leaves no file behind", async () => {
    const cache = tempDir();
    const model = fakeModel({ "model.onnx": "0".repeat(64) });
    let error: unknown;
    try {
      await ensureModelFiles(model, cache, { endpoint: endpoint() });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("MODEL_DOWNLOAD");
    expect((error as AppError).message).toContain("checksum mismatch");
    expect((error as AppError).hint).toContain("copy a populated CACHE_DIR");
    // Both ways round a blocked network are named: a mirror, or a local folder.
    expect((error as AppError).hint).toContain(`cannot reach ${endpoint()}, set HF_ENDPOINT`);
    expect((error as AppError).hint).toContain("set MODEL_NAME to the absolute path of a folder");
    const dir = snapshotDir(cache, model);
    expect(existsSync(join(dir, "model.onnx"))).toBe(false);
    expect(existsSync(join(dir, "model.onnx.part"))).toBe(false);
  });

  test("an interrupted transfer resumes with a Range request and ends with the right bytes", async () => {
    const cache = tempDir();
    cutNextTransferOf = "model.onnx";
    const start = requests.length;
    const lines: string[] = [];
    const dir = await ensureModelFiles(fakeModel(), cache, { endpoint: endpoint(), log: (l) => lines.push(l) });
    const modelRequests = requests.slice(start).filter((r) => r.path.endsWith("model.onnx"));
    expect(modelRequests).toHaveLength(2);
    expect(modelRequests[0]!.range).toBeNull();
    expect(modelRequests[1]!.range).toMatch(/^bytes=\d+-$/);
    expect(sha(readFileSync(join(dir, "model.onnx")))).toBe(sha(files["model.onnx"]!));
    expect(lines.some((l) => l.includes("attempt 1/3"))).toBe(true);
  });

  test("an unreachable hub gives the troubleshooting error naming the URL", async () => {
    let error: unknown;
    try {
      await ensureModelFiles(fakeModel(), tempDir(), { endpoint: "http://127.0.0.1:9" });
    } catch (e) {
      error = e;
    }
    expect((error as AppError).code).toBe("MODEL_DOWNLOAD");
    expect((error as AppError).message).toContain("could not be loaded");
    expect((error as AppError).message).toContain("http://127.0.0.1:9/test/fake-model-onnx/resolve/");
    expect((error as AppError).hint).toContain("retry");
  });
});

/** A child process downloading one file (download-child.ts), its stderr gathered as it comes. */
function downloadChild(url: string, target: string) {
  const proc = Bun.spawn(["bun", join(REPO_ROOT, "test/embed/download-child.ts"), url, target, sha(files["model.onnx"]!), "model.onnx"], { stdout: "pipe", stderr: "pipe" });
  const err = { text: "" };
  const errDone = (async () => {
    for await (const chunk of proc.stderr) err.text += new TextDecoder().decode(chunk);
  })();
  const result = async () => ({ code: await proc.exited, out: await new Response(proc.stdout).text(), err: (await errDone, err.text) });
  return { proc, err, result };
}

describe("two processes downloading one file", () => {
  const url = () => `${endpoint()}/test/fake-model-onnx/resolve/main/model.onnx`;

  test("the second waits for the first and takes its file: one transfer, the right bytes, no lock or part file left", async () => {
    gatedFiles.add("model.onnx");
    try {
      const dir = tempDir();
      const target = join(dir, "model.onnx");
      const start = requests.length;
      const first = downloadChild(url(), target);
      await waitFor(() => requests.length > start, 30_000, "the first download's request");
      const second = downloadChild(url(), target);
      await waitFor(() => second.err.text.includes("another process is downloading model.onnx; waiting for it to finish"), 30_000, "the second to wait");
      openGate();
      const [a, b] = await Promise.all([first.result(), second.result()]);
      expect(a.code).toBe(0);
      expect(b.code).toBe(0);
      expect(a.out.trim()).toBe("done");
      expect(b.out.trim()).toBe("done");
      expect(requests.slice(start).filter((r) => r.path.endsWith("model.onnx"))).toHaveLength(1);
      expect(sha(readFileSync(target))).toBe(sha(files["model.onnx"]!));
      expect(readdirSync(dir)).toEqual(["model.onnx"]);
    } finally {
      gatedFiles.delete("model.onnx");
    }
  });

  test("a holder that stops making progress (suspended) is waited for only so long, then the waiter fails with a message naming it", async () => {
    gatedFiles.add("model.onnx");
    const dir = tempDir();
    const target = join(dir, "model.onnx");
    const start = requests.length;
    const holder = downloadChild(url(), target);
    try {
      await waitFor(() => requests.length > start && existsSync(`${target}.part`), 30_000, "the holder's transfer");
      holder.proc.kill("SIGSTOP");
      const lines: string[] = [];
      const error = await downloadVerified({ url: url(), target, sha256: sha(files["model.onnx"]!), name: "model.onnx" }, (l) => lines.push(l), 1500).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toContain(`another process has been downloading model.onnx into ${target}.part without progress for 2 s (is it suspended?)`);
      expect(lines).toContain("another process is downloading model.onnx; waiting for it to finish");
      expect(existsSync(target)).toBe(false);
    } finally {
      holder.proc.kill("SIGCONT");
      openGate();
      gatedFiles.delete("model.onnx");
    }
    // Resumed, the holder finishes its download as if nothing had happened.
    const done = await holder.result();
    expect(done.code).toBe(0);
    expect(sha(readFileSync(target))).toBe(sha(files["model.onnx"]!));
  });
});
