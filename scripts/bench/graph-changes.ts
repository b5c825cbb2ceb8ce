#!/usr/bin/env bun
/**
 * bun scripts/bench/graph-changes.ts [--rounds 8] [--model DIR]: what each of
 * the embedder's graph changes does on a model of the old default's form,
 * the fused stand-in (scripts/accept/fused-standin.ts; --model names another
 * folder). For each change, whether its pattern is in the graph, and where it
 * is, the embedding time with and without it: the same batches of 100
 * scifact abstracts (cut to the model's trained length), one process, the
 * variants alternating round by round, medians. The optimised-model cache is
 * timed as session creation from the model file against creation from the
 * cached copy, alternating likewise.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { InferenceSession } from "onnxruntime-node";
import { planBatches, DEFAULT_BATCH_TOKENS } from "../../src/embed/batch-plan.ts";
import { geluAsDivision } from "../../src/embed/gelu-division.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { sessionOptions } from "../../src/embed/model-session.ts";
import { ModelTokenizer } from "../../src/embed/model-tokenizer.ts";
import { createCachedSession, sessionFromModelFile } from "../../src/embed/optimized-model-cache.ts";
import { residualNormCount } from "../../src/embed/residual-norms.ts";
import { loadOnnxRuntime } from "../../src/native/onnxruntime.ts";
import { fusedStandin } from "../accept/fused-standin.ts";
import { opTypes, optimisedModel } from "../../test/embed/optimised-graph.ts";
import { CORPUS } from "./lib/datasets.ts";
import { tempDir } from "./lib/setup.ts";
import { median } from "./lib/stats.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "8" }, model: { type: "string" } } });
const rounds = Number(values.rounds);
const dir = values.model ?? (await fusedStandin());
const folder = await resolveModelFolder(dir, { cacheDir: tempDir("graph-changes-cache"), endpoint: "http://127.0.0.1:9" });
const bytes = readFileSync(folder.onnxPath);
const tokenizer = new ModelTokenizer(folder.tokenizer, folder.tokenizerConfig, folder.profile.maxLength);
const docsDir = join(CORPUS, "scifact/docs");
const texts = readdirSync(docsDir).sort().slice(0, 100).map((f) => folder.profile.passagePrefix + readFileSync(join(docsDir, f), "utf8"));
const encoded = texts.map((t) => tokenizer.encode(t));
const batches = planBatches(encoded.map((e) => e.ids.length), DEFAULT_BATCH_TOKENS).map((rows) => rows.map((i) => encoded[i]!));
const ort = await loadOnnxRuntime();

function feeds(session: InferenceSession, batch: typeof encoded): Record<string, InstanceType<typeof ort.Tensor>> {
  const width = Math.max(...batch.map((e) => e.ids.length));
  const fill = (pick: (e: (typeof encoded)[number]) => number[]) => {
    const out = new BigInt64Array(batch.length * width);
    batch.forEach((e, r) => pick(e).forEach((v, c) => (out[r * width + c] = BigInt(v))));
    return new ort.Tensor("int64", out, [batch.length, width]);
  };
  const all = { input_ids: fill((e) => e.ids), attention_mask: fill((e) => e.attentionMask), token_type_ids: fill((e) => e.typeIds) };
  return Object.fromEntries(session.inputNames.map((name) => [name, all[name as keyof typeof all]]));
}

async function embedAll(session: InferenceSession): Promise<number> {
  const start = performance.now();
  for (const batch of batches) await session.run(feeds(session, batch));
  return performance.now() - start;
}

/** Medians of alternating rounds for each variant (ms), after one warm-up run each. */
async function alternate(variants: Record<string, () => Promise<number>>): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (const run of Object.values(variants)) await run();
  for (let r = 0; r < rounds; r++) for (const [name, run] of Object.entries(variants)) times[name]!.push(await run());
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(median(v))]));
}

console.log(`model ${folder.onnxPath} (${(bytes.length / 1e6).toFixed(1)} MB); ${texts.length} texts in ${batches.length} batches; ${rounds} alternating rounds`);

const rewrite = geluAsDivision(bytes);
console.log(`GELU as a division: ${rewrite ? `${rewrite.rewritten} Mul nodes to rewrite` : "no Mul(x, 1/sqrt 2) feeding an Erf: not applied"}`);

const residualNorms = residualNormCount(bytes);
// Deterministic, unlike the timings: whether the setting changes the graph ORT runs at all.
const [opsWith, opsWithout] = await Promise.all([true, false].map((r) => optimisedModel(bytes, { optimization: (sessionOptions("never", false, undefined, r).extra as { optimization?: unknown }).optimization ?? {} })));
console.log(`SkipLayerNorm fusion off: ORT's optimised graph ${JSON.stringify(opTypes(opsWith!)) === JSON.stringify(opTypes(opsWithout!)) ? "is the same" : "differs"} with and without the setting (${opTypes(opsWith!).length} and ${opTypes(opsWithout!).length} nodes)`);
const withSetting = await sessionFromModelFile(ort, folder.onnxPath, sessionOptions("during-runs", false, undefined, true));
const withoutSetting = await sessionFromModelFile(ort, folder.onnxPath, sessionOptions("during-runs", false, undefined, false));
const skip = await alternate({ "with the setting": () => embedAll(withSetting), "without it": () => embedAll(withoutSetting) });
console.log(`SkipLayerNorm fusion off: ${residualNorms} residual norms in the graph (${residualNorms ? "applied" : "not applied"}); embedding ms ${JSON.stringify(skip)}`);

const cacheDir = tempDir("graph-changes-ort");
const optionsFor = (r: boolean) => sessionOptions("during-runs", false, undefined, r);
const request = { onnxPath: folder.onnxPath, modelName: dir, fingerprint: folder.fingerprint, cacheDir, optionsFor };
await createCachedSession(ort, request);
const timed = async (open: () => Promise<unknown>) => {
  const start = performance.now();
  await open();
  return performance.now() - start;
};
const load = await alternate({
  "from the model file": () => timed(() => sessionFromModelFile(ort, folder.onnxPath, optionsFor(residualNorms > 0))),
  "from the cache": () => timed(async () => {
    const loaded = await createCachedSession(ort, request);
    if (loaded.source !== "cache") throw new Error(`expected the cached copy, got ${loaded.source}`);
  }),
});
console.log(`optimised-model cache: session creation ms ${JSON.stringify(load)}`);
process.exit(0);
