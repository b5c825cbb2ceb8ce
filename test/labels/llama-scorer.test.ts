/**
 * The llama.cpp scorer run for real, on a tiny GGUF written by the test
 * (tiny-gguf.ts): no trained model is reachable here, but this one loads and
 * runs in llama.cpp like any other, and its output is rigged to prefer the
 * letter B, then C. So the whole path runs: loading, the chat template,
 * evaluation, reading the option letters' probabilities, calibration,
 * storing the label; and the pinned download with its sha256 check, from a
 * local server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { calibrate } from "../../src/labels/label-scorer.ts";
import { labelPrompt, loadLlamaScorer } from "../../src/labels/llama-scorer.ts";
import { ensureModelFile } from "../../src/labels/model-file.ts";
import { listFiles } from "../../src/read/list-files.ts";
import { fullStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, tempDir, testApp, writeTree } from "../helpers.ts";
import { writeTinyGguf } from "./tiny-gguf.ts";

const gguf = join(tempDir("minirag-tiny-gguf-"), "tiny.gguf");
writeTinyGguf(gguf);
const bytes = readFileSync(gguf);
const sha256 = createHash("sha256").update(bytes).digest("hex");
const settings = { source: { kind: "path" as const, path: gguf }, temperature: 2, uncertainBelow: 0.7, fileNameLabel: "Имя файла" };
const ctx = { roots: [], cacheDir: tempDir(), hfEndpoint: "http://127.0.0.1:9", log: () => {} };
const request = { question: "What kind of document is this?", options: [{ id: "minutes", description: "Minutes." }, { id: "mail", description: "Mail." }, { id: "report", description: "Report." }], text: "Протокол совещания\n\nПрисутствовали: …", fileName: "2026-08-05 протокол.docx", fileNameLabel: "Имя файла" };

describe("the llama.cpp scorer on a tiny GGUF", () => {
  test("the prompt letters the options and names the file under its label", () => {
    expect(labelPrompt(request)).toBe("What kind of document is this?\n\nA. Minutes.\nB. Mail.\nC. Report.\n\nИмя файла: 2026-08-05 протокол.docx\n\nПротокол совещания\n\nПрисутствовали: …\n\nAnswer with the letter of one option.");
  });

  test("it loads the file, runs the prompt and reads each option letter's log-probability", async () => {
    const scorer = await loadLlamaScorer(settings, ctx);
    try {
      const logits = await scorer.logits(request);
      expect(logits).toHaveLength(3);
      // The rigged output layer: B leads C by about 2 nats and A trails B by about 8.
      expect(logits[1]! - logits[2]!).toBeCloseTo(2, 1);
      expect(logits[1]! - logits[0]!).toBeCloseTo(8, 0);
      const p = calibrate(logits, 2);
      expect(p[1]).toBeGreaterThan(p[2]!);
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
      // The same prompt twice gives the same answer: each call has a fresh sequence.
      expect(await scorer.logits(request)).toEqual(logits);
    } finally {
      await scorer.release();
    }
  }, 60_000);

  test("a file that is not a GGUF fails to load with an error naming it", async () => {
    const bad = join(tempDir(), "bad.gguf");
    await Bun.write(bad, "not a model");
    const error = await failure(loadLlamaScorer({ ...settings, source: { kind: "path", path: bad } }, ctx));
    expect(error.code).toBe("MODEL_LOAD");
    expect(error.message).toContain(`The label model ${bad} could not be loaded`);
  }, 60_000);
});

describe("a pinned download", () => {
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({ port: 0, fetch: (req) => (new URL(req.url).pathname === "/someone/tiny-GGUF/resolve/0123456789abcdef0123456789abcdef01234567/tiny.gguf" ? new Response(bytes) : new Response("no", { status: 404 })) });
  });
  afterAll(() => server.stop(true));
  const pin = (digest: string) => ({ kind: "pinned" as const, repo: "someone/tiny-GGUF", file: "tiny.gguf", revision: "0123456789abcdef0123456789abcdef01234567", sha256: digest });

  test("is fetched once into CACHE_DIR/classify after its sha256 matches", async () => {
    const cacheDir = tempDir();
    const path = await ensureModelFile(pin(sha256), { cacheDir, endpoint: server.url.href.replace(/\/$/, ""), log: () => {} });
    expect(path).toBe(join(cacheDir, "classify", "someone--tiny-GGUF", "0123456789abcdef0123456789abcdef01234567", "tiny.gguf"));
    expect(createHash("sha256").update(readFileSync(path)).digest("hex")).toBe(sha256);
    // Cached: no server needed the second time.
    expect(await ensureModelFile(pin(sha256), { cacheDir, endpoint: "http://127.0.0.1:9", log: () => {} })).toBe(path);
  });

  test("is refused and removed when its sha256 differs from the pin", async () => {
    const cacheDir = tempDir();
    const error = await failure(ensureModelFile(pin("0".repeat(64)), { cacheDir, endpoint: server.url.href.replace(/\/$/, ""), log: () => {} }));
    const url = `${server.url.href.replace(/\/$/, "")}/someone/tiny-GGUF/resolve/0123456789abcdef0123456789abcdef01234567/tiny.gguf`;
    expect(error.message).toBe(`The label model could not be downloaded from ${url}: checksum mismatch for tiny.gguf: expected sha256 ${"0".repeat(64)}, got ${sha256}`);
    expect(await Bun.file(join(cacheDir, "classify", "someone--tiny-GGUF", "0123456789abcdef0123456789abcdef01234567", "tiny.gguf")).exists()).toBe(false);
  });
});

describe("a sync with the tiny model", () => {
  test("labels a model facet with the second option and the third as runner-up, then frees the model", async () => {
    const { app, root } = await testApp();
    writeTree(root, {
      ".minirag/classify.toml": `[model]\npath = "${gguf}"\ntemperature = 2\n[facets.type]\nvalues.minutes = { description = "Minutes." }\nvalues.mail = { description = "Mail." }\nvalues.report = { description = "Report." }\n`,
      "a.md": "# Weekly sync\n\nAttendees: A, B.",
    });
    const report = await runSync(app);
    expect(report.errors).toEqual([]);
    const [file] = (await listFiles(app)).files;
    expect(file!.labels!.type).toMatchObject({ value: "mail", source: "model", runnerUp: "report", uncertain: false });
    expect(file!.labels!.type!.confidence).toBeGreaterThan(0.7);
    expect(((await fullStatus(app)).labels as any).model).toBe("on-demand");
  }, 60_000);
});
