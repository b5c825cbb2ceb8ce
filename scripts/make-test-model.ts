#!/usr/bin/env bun
/**
 * Writes a BERT-style ONNX model with random weights plus a WordPiece
 * tokenizer covering Latin and Cyrillic, in the layout MODEL_NAME accepts as
 * an absolute folder path.
 *
 *   bun scripts/make-test-model.ts --shape tiny --out test/fixtures/models/tiny
 *   bun scripts/make-test-model.ts --shape l12  --out /tmp/l12 [--quantize]
 *
 * tiny is committed and used by the tests. l12 has the compute of the real
 * default model (12 layers, hidden 384, 12 heads, intermediate 1536) for
 * benchmarks; its weights are random, so it says nothing about quality.
 * --quantize makes the dense layers dynamic int8, as in the default model's
 * quantized export.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildBert, type BertShape } from "./onnx/bert.ts";
import { buildVocab, tokenizerConfig, tokenizerJson } from "./onnx/wordpiece.ts";

const MAX_LENGTH = 128;
const SHAPES: Record<string, Omit<BertShape, "vocabSize">> = {
  tiny: { hidden: 32, layers: 2, heads: 2, intermediate: 64, maxPositions: MAX_LENGTH },
  l12: { hidden: 384, layers: 12, heads: 12, intermediate: 1536, maxPositions: 512 },
};

const { values } = parseArgs({
  options: {
    shape: { type: "string", default: "tiny" },
    out: { type: "string" },
    corpus: { type: "string", default: resolve(import.meta.dir, "../../shared/corpus") },
    quantize: { type: "boolean", default: false },
  },
});
const shape = SHAPES[values.shape!];
if (!shape || !values.out) {
  console.error("usage: make-test-model.ts --shape tiny|l12 --out DIR [--quantize] [--corpus DIR]");
  process.exit(2);
}

/** Sample text for the vocabulary: the committed tiny tokenizer if present, else the shared corpus. */
function vocabulary(): string[] {
  const committed = resolve(import.meta.dir, "../test/fixtures/models/tiny/tokenizer.json");
  if (values.shape !== "tiny" && existsSync(committed)) {
    const vocab = JSON.parse(readFileSync(committed, "utf8")).model.vocab as Record<string, number>;
    return Object.entries(vocab).sort((a, b) => a[1] - b[1]).map(([t]) => t);
  }
  const dirs = ["xquad-en/docs", "xquad-ru/docs"].map((d) => join(values.corpus!, d));
  const texts = dirs.flatMap((d) => readdirSync(d).map((f) => readFileSync(join(d, f), "utf8")));
  return buildVocab(texts, 2000, 300);
}

const vocab = vocabulary();
const out = resolve(values.out);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "model.onnx"), buildBert({ ...shape, vocabSize: vocab.length, quantize: values.quantize }));
writeFileSync(join(out, "tokenizer.json"), JSON.stringify(tokenizerJson(vocab, MAX_LENGTH)));
writeFileSync(join(out, "tokenizer_config.json"), JSON.stringify(tokenizerConfig(MAX_LENGTH), null, 2));
writeFileSync(
  join(out, "config.json"),
  JSON.stringify({ model_type: "bert", hidden_size: shape.hidden, num_hidden_layers: shape.layers, max_position_embeddings: shape.maxPositions }, null, 2),
);
console.error(`wrote ${values.shape} model (${vocab.length} tokens, hidden ${shape.hidden}) to ${out}`);
