/**
 * ModelSession asks ONNX Runtime to treat denormal floats as zero. ORT sets
 * that flag on the thread that creates the process's first session, and
 * JavaScript on that thread would then flush its own tiny numbers to zero, so
 * sessions must open in the model thread (model-thread.ts), never on the main
 * one. The flag is set once per process, so each case runs in its own.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { GraphBuilder } from "../../scripts/onnx/graph.ts";
import { sessionOptions } from "../../src/embed/model-session.ts";
import { REPO_ROOT, TINY_MODEL, runScriptInFreshProcess } from "../helpers.ts";
import { residualNormCount } from "../../src/embed/residual-norms.ts";
import { opTypes as opTypesOf, optimisedModel, optimisedOps } from "./optimised-graph.ts";

/** Runs body in a fresh Bun process and returns what the main thread's arithmetic says about tiny numbers afterwards. */
function mainThreadAfter(body: string): { minValuePositive: boolean; halvedPositive: boolean } {
  return runScriptInFreshProcess<{ minValuePositive: boolean; halvedPositive: boolean }>(
    `import { resolveModelFolder } from ${JSON.stringify(join(REPO_ROOT, "src/embed/model-folder.ts"))};
const folder = await resolveModelFolder(${JSON.stringify(TINY_MODEL)}, { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" });
${body}
const tiny = 1e-310;
console.log(JSON.stringify({ minValuePositive: Number.MIN_VALUE > 0, halvedPositive: tiny / 2 > 0 }));
process.exit(0);`,
  ).output;
}

describe("denormals as zero", () => {
  test("embedding through the model thread leaves the main thread's tiny numbers alone", () => {
    const after = mainThreadAfter(`const { OnnxEmbedder } = await import(${JSON.stringify(join(REPO_ROOT, "src/embed/embedder.ts"))});
const embedder = await OnnxEmbedder.load(folder);
if ((await embedder.embed(["a text to embed"]))[0]!.length !== 32) throw new Error("no vector");`);
    expect(after).toEqual({ minValuePositive: true, halvedPositive: true });
  });

  test("the same session opened on the calling thread would flush them on x64, which is why none opens there", () => {
    const after = mainThreadAfter(`const { ModelSession } = await import(${JSON.stringify(join(REPO_ROOT, "src/embed/model-session.ts"))});
const { pooling, normalize } = folder.profile;
await ModelSession.open({ onnxPath: folder.onnxPath, modelName: folder.modelName, fingerprint: folder.fingerprint, spin: "never", pooling, normalize });`);
    // ORT sets the flag only on x86 (SSE3); elsewhere it is a no-op and nothing changes.
    const flushed = process.arch === "x64" || process.arch === "ia32";
    expect(after).toEqual({ minValuePositive: !flushed, halvedPositive: !flushed });
  });
});

describe("the optimiser's choices", () => {
  /** A residual Add and the LayerNormalization after it, with the hidden size known, as in a BERT layer; `constant`: b is a weight, not a computed tensor. */
  function residualNorm(constant = false): Uint8Array {
    const g = new GraphBuilder();
    const a = g.input("a", "float", ["batch", "sequence", 8]);
    const b = constant ? g.floats("b", [8], new Float32Array(8).fill(0.5)) : g.input("b", "float", ["batch", "sequence", 8]);
    const gamma = g.floats("gamma", [8], new Float32Array(8).fill(1));
    const beta = g.floats("beta", [8], new Float32Array(8));
    g.op("LayerNormalization", [g.op("Add", [a, b]), gamma, beta], [{ name: "axis", int: -1 }, { name: "epsilon", float: 1e-12 }], "y");
    g.output("y", "float", ["batch", "sequence", 8]);
    return g.serialize("residual norm");
  }

  test("a residual Add and its LayerNormalization stay two kernels, which ORT would otherwise fuse into its slower one", async () => {
    // Only the optimiser's settings: the session's own would set denormals-as-zero on this test process's thread.
    const { optimization } = sessionOptions("never").extra as { optimization: Record<string, unknown> };
    expect(await optimisedOps(residualNorm())).toEqual(["SkipLayerNormalization"]);
    expect(await optimisedOps(residualNorm(), { optimization })).toEqual(["Add", "LayerNormalization"]);
  });

  test("the setting goes only to a graph with a residual Add before a LayerNormalization: a graph ORT has already fused has none, and optimises the same without it", async () => {
    const { optimization } = sessionOptions("never").extra as { optimization: Record<string, unknown> };
    expect(residualNormCount(residualNorm())).toBe(1);
    // What ONNX Runtime's offline optimiser leaves (the old default's model_optimized.onnx is such a graph).
    const fused = await optimisedModel(residualNorm());
    expect(opTypesOf(fused)).toEqual(["SkipLayerNormalization"]);
    expect(residualNormCount(fused)).toBe(0);
    expect(await optimisedOps(fused, { optimization })).toEqual(await optimisedOps(fused));
    // An Add of a weight is no residual: ORT leaves it unfused anyway.
    expect(residualNormCount(residualNorm(true))).toBe(0);
    expect(await optimisedOps(residualNorm(true))).toEqual(await optimisedOps(residualNorm(true), { optimization }));
    expect((sessionOptions("never", false, 2, false).extra as Record<string, unknown>).optimization).toBeUndefined();
    expect((sessionOptions("never", false, 2, true).extra as Record<string, unknown>).optimization).toEqual(optimization);
  });

  test("every kind of session makes the same graph: only their threads differ (how they wait; on 2 cores, how many questions get)", () => {
    const { extra: spinning, ...rest } = sessionOptions("during-runs", false, 2);
    const { extra: sleeping, intraOpNumThreads, ...restQuestions } = sessionOptions("never", true, 2);
    expect(rest).toEqual(restQuestions);
    expect((spinning as { optimization: unknown }).optimization).toEqual((sleeping as { optimization: unknown }).optimization);
    expect([intraOpNumThreads, rest.intraOpNumThreads]).toEqual([1, undefined]);
    // A sleeping session that also embeds passages, and a question session with cores to spare, keep ORT's default.
    expect(sessionOptions("never", false, 2).intraOpNumThreads).toBeUndefined();
    expect(sessionOptions("never", true, 8).intraOpNumThreads).toBeUndefined();
  });
});
