/**
 * Acceptance: a model of the old default's form runs end to end. The old
 * default's file (model_optimized.onnx) is a graph ONNX Runtime's offline
 * optimiser has fused, which no test here could run (it cannot be downloaded
 * on these machines); the stand-in (scripts/onnx/make-fused-standin.py, built
 * and cached by fused-standin.ts) is e5's weights in that form. The compiled
 * binary syncs 20 English XQuAD paragraphs with it and finds the right one by
 * vectors alone, and neither graph change finds anything to change in it.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { geluAsDivision } from "../../src/embed/gelu-division.ts";
import { residualNormCount } from "../../src/embed/residual-norms.ts";
import { sessionOptions } from "../../src/embed/model-session.ts";
import { opTypes, optimisedOps } from "../../test/embed/optimised-graph.ts";
import { BINARY, FIXTURES, runCli, tempDir } from "../../test/helpers.ts";
import { fusedStandin, STANDIN_FILE } from "./fused-standin.ts";

const DOCS = join(FIXTURES, "xquad-en/docs");
/** [paragraph, question]: the first XQuAD question of four paragraphs (as in semantic-e5.test.ts). */
const QUESTIONS: [string, string][] = [
  ["1973_oil_crisis-p01.md", "When did Syria and Egypt launch a surprise attack on Israel?"],
  ["Newcastle_upon_Tyne-p03.md", "What genre of music is Lindisfarne classified as?"],
  ["Pharmacy-p01.md", "Who oversees a Pharmacy Technician in the UK?"],
  ["Steam_engine-p03.md", "What limits the Rankine cycle's efficiency?"],
];

let model: string;
let env: Record<string, string>;

beforeAll(async () => {
  model = await fusedStandin();
  env = { BASE_DIR: DOCS, MODEL_NAME: model, DB_PATH: join(tempDir("minirag-accept-fused-"), "lancedb"), CACHE_DIR: tempDir("minirag-accept-fused-cache-"), RAG_HYBRID_WEIGHT: "0" };
}, 900_000);

describe("the fused stand-in", () => {
  test("is of the old default's form: fused kernels, no Erf to rewrite, no residual Add before a LayerNormalization", () => {
    const bytes = readFileSync(join(model, STANDIN_FILE));
    const ops = opTypes(bytes);
    expect(ops.filter((op) => op === "SkipLayerNormalization")).toHaveLength(24);
    expect(ops.filter((op) => op === "BiasGelu")).toHaveLength(12);
    expect(ops).not.toContain("Erf");
    // So neither change runs: the GELU rewrite finds no pattern, and the SkipLayerNorm setting is left out.
    expect(geluAsDivision(bytes)).toBeNull();
    expect(residualNormCount(bytes)).toBe(0);
  });

  test("ORT optimises it to the same graph with the SkipLayerNorm setting as without: the setting has nothing to act on, which is why it is left out", async () => {
    const bytes = readFileSync(join(model, STANDIN_FILE));
    const { optimization } = sessionOptions("never").extra as { optimization: Record<string, unknown> };
    expect(optimization).toBeDefined();
    const plain = await optimisedOps(bytes);
    expect(plain.filter((op) => op === "SkipLayerNormalization")).toHaveLength(24);
    expect(await optimisedOps(bytes, { optimization })).toEqual(plain);
  }, 300_000);

  test("syncs and answers through the compiled binary (each query loading the optimised copy the sync cached), and vectors alone find the right paragraph", () => {
    const sync = runCli(["sync", "--json"], { exe: [BINARY], cwd: DOCS, env });
    expect(sync.exitCode).toBe(0);
    const report = JSON.parse(sync.stdout) as { counts: { ingested: number }; notice?: string };
    expect(report.notice).toBeUndefined();
    expect(report.counts.ingested).toBe(20);
    const status = JSON.parse(runCli(["status", "--json"], { exe: [BINARY], cwd: DOCS, env }).stdout) as { model: string; modelSource: string; indexModel: { name: string; maxLength: number } };
    expect(status).toMatchObject({ model, modelSource: "folder", indexModel: { name: model, maxLength: 128 } });
    const cached = readdirSync(join(env.CACHE_DIR!, "optimized")).flatMap((folder) => readdirSync(join(env.CACHE_DIR!, "optimized", folder)));
    expect(cached.filter((f) => f.endsWith(".ort"))).toHaveLength(1);
    for (const [paragraph, question] of QUESTIONS) {
      const answer = runCli(["query", question, "--top-k", "3", "--json"], { exe: [BINARY], cwd: DOCS, env });
      expect(answer.exitCode).toBe(0);
      const first = (JSON.parse(answer.stdout) as { results: { source: string }[] }).results[0];
      expect(first && basename(first.source)).toBe(paragraph);
    }
  }, 600_000);
});
