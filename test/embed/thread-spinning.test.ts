/**
 * ONNX Runtime's threads busy-wait after a run unless told not to. The
 * embedder stops them, whether they sleep between a run's operators (a
 * server's setting) or spin while the run lasts (a document-embedding CLI
 * command's): spinning on after a run, they took both cores from the search
 * after a query's embedding. Checked on both ways a session is made: from the
 * model and from the optimised cache, whose own options must not drop the
 * setting.
 */
import { describe, expect, test } from "bun:test";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { loadOnnxRuntime } from "../../src/native/onnxruntime.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";

/** CPU the process burns while idle just after each of ten runs: busy-waiting threads show up here. */
async function idleCpuMs(run: () => Promise<unknown>): Promise<number> {
  await run();
  let cpu = 0;
  for (let i = 0; i < 10; i++) {
    await run();
    const start = process.cpuUsage();
    await Bun.sleep(30);
    const used = process.cpuUsage(start);
    cpu += (used.user + used.system) / 1000;
  }
  return cpu;
}

const texts = Array.from({ length: 8 }, (_, i) => `pumps and valves in the secondary loop, line ${i}`);
const folder = await resolveModelFolder(TINY_MODEL, { cacheDir: "/none", endpoint: "http://127.0.0.1:9" });

/** A plain session with ORT's default (spinning) and two threads: what the embedder must stay well under. */
async function spinningBaseline(): Promise<number> {
  const ort = await loadOnnxRuntime();
  const session = await ort.InferenceSession.create(folder.onnxPath, { intraOpNumThreads: 2, interOpNumThreads: 1, executionMode: "sequential" });
  const feeds = Object.fromEntries(session.inputNames.map((name) => [name, new ort.Tensor("int64", new BigInt64Array(8 * 32).fill(name === "token_type_ids" ? 0n : 1n), [8, 32])]));
  try {
    return await idleCpuMs(() => session.run(feeds));
  } finally {
    await session.release();
  }
}

describe("ORT threads do not busy-wait after an embedding", () => {
  for (const spin of ["never", "during-runs"] as const) {
    test(`spinning ${spin}: a session made from the model, and one from the optimised cache, idle at under half the CPU of a spinning session`, async () => {
      const baseline = await spinningBaseline();
      const plain = await OnnxEmbedder.load(folder, { spin });
      const cacheDir = tempDir("minirag-spin-cache-");
      await OnnxEmbedder.load(folder, { cacheDir, spin }); // writes the cache
      const cached = await OnnxEmbedder.load(folder, { cacheDir, spin });
      expect(cached.sessionSource).toBe("cache");
      expect(await idleCpuMs(() => plain.embed(texts))).toBeLessThan(baseline / 2);
      expect(await idleCpuMs(() => cached.embed(texts))).toBeLessThan(baseline / 2);
    });
  }
});
