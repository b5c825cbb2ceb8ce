/**
 * The MCP server's first load where CACHE_DIR holds no optimised copy of the
 * model (embed/later-model-cache.ts): it answers from the model alone and
 * writes the copy once the model has been idle for WRITE_AFTER_IDLE_MS, or at
 * once when a sync opens the passages' session. The real ONNX Runtime, the
 * committed tiny model, the idle time on a hand-moved clock.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { WRITE_AFTER_IDLE_MS } from "../../src/embed/later-model-cache.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { cacheFolder } from "../../src/embed/optimized-model-cache.ts";
import { fakeClock } from "../fake-clock.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";

const QUESTION = ["which port does the agent listen on"];

async function setup() {
  const modelDir = join(tempDir("minirag-latercache-model-"), "tiny");
  cpSync(TINY_MODEL, modelDir, { recursive: true });
  const cacheDir = tempDir("minirag-latercache-");
  const folder = await resolveModelFolder(modelDir, { cacheDir, endpoint: "http://127.0.0.1:9" });
  const copies = () => (existsSync(cacheFolder(cacheDir, modelDir)) ? readdirSync(cacheFolder(cacheDir, modelDir)).filter((f) => f.endsWith(".ort")) : []);
  const clock = fakeClock();
  const load = (cacheLater: boolean) => OnnxEmbedder.load(folder, { cacheDir, cacheLater, spin: "by-kind", clock });
  return { copies, clock, load };
}

describe("the optimised model copy, written when idle", () => {
  test("a first load answers from the model; the copy is written after the idle time, counted from the last question, and the next load maps it", async () => {
    const s = await setup();
    const first = await s.load(true);
    expect(first.sessionSource).toBe("model, cache later");
    const vector = await first.embed(QUESTION, "query");
    expect(s.copies()).toEqual([]);
    s.clock.advance(WRITE_AFTER_IDLE_MS - 1);
    // A question just before the deadline starts the idle time again.
    expect(await first.embed(QUESTION, "query")).toEqual(vector);
    s.clock.advance(WRITE_AFTER_IDLE_MS - 1);
    expect(s.copies()).toEqual([]);
    s.clock.advance(1);
    await first.laterCacheWrite();
    expect(s.copies()).toHaveLength(1);
    // The first session keeps answering, the same vectors; a new process's load maps the copy.
    expect(await first.embed(QUESTION, "query")).toEqual(vector);
    const next = await s.load(true);
    expect(next.sessionSource).toBe("cache");
    expect(await next.embed(QUESTION, "query")).toEqual(vector);
  });

  test("a sync before the idle time is up writes the copy with the passages' session, and nothing is written twice", async () => {
    const s = await setup();
    const embedder = await s.load(true);
    await embedder.embed(["Restart the agent after an upgrade."]);
    expect(s.copies()).toHaveLength(1);
    s.clock.advance(10 * WRITE_AFTER_IDLE_MS);
    expect(await embedder.laterCacheWrite()).toBe(false);
  });

  test("a CACHE_DIR that cannot take the copy is said once, without loading the model a second time", async () => {
    const modelDir = join(tempDir("minirag-latercache-model-"), "tiny");
    cpSync(TINY_MODEL, modelDir, { recursive: true });
    const cacheDir = tempDir("minirag-latercache-file-");
    // Where the copies' folder should be there is a file.
    writeFileSync(join(cacheDir, "optimized"), "not a folder");
    const lines: string[] = [];
    const clock = fakeClock();
    const embedder = await OnnxEmbedder.load(await resolveModelFolder(modelDir, { cacheDir, endpoint: "http://127.0.0.1:9" }), { cacheDir, cacheLater: true, spin: "by-kind", clock, log: (l) => lines.push(l) });
    expect(embedder.sessionSource).toBe("model, cache later");
    clock.advance(WRITE_AFTER_IDLE_MS);
    expect(await embedder.laterCacheWrite()).toBe(false);
    expect(lines.filter((l) => l.startsWith("warn: could not write the optimised model copy"))).toHaveLength(1);
    expect(await embedder.embed(QUESTION, "query")).toHaveLength(1);
  });

  test("a command (no cacheLater) writes the copy before its first answer, as before", async () => {
    const s = await setup();
    const embedder = await s.load(false);
    expect(embedder.sessionSource).toBe("model, cache written");
    expect(s.copies()).toHaveLength(1);
  });
});
