/**
 * Every way a MODEL_NAME folder can be broken, through the compiled binary:
 * files that are empty, truncated, unreadable or of the wrong kind, a
 * tokenizer of another model, ONNX graphs whose inputs or output the embedder
 * cannot use. Each one puts sync and query in keyword-only mode: the file is
 * indexed and found, both exit 0, and the human output's stderr names the
 * reason and the fix. (Root ignores chmod, so "unreadable" is a folder where
 * the file should be, which fails the same read.)
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GraphBuilder } from "../../scripts/onnx/graph.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";
import { unigramJson } from "../embed/unigram-json.ts";
import { binaryEnv, killAll, run } from "./sync-procs.ts";

afterAll(killAll);

interface Damage {
  name: string;
  damage(dir: string): void;
  /** Part of the message that says what is wrong (the file's name is checked separately where it is given). */
  reason: string;
  /** Part of the hint that says what to do. */
  fix: string;
  /** The file the message must name, relative to the folder. */
  names?: string;
}

const write = (file: string, content: string | Uint8Array) => (dir: string) => writeFileSync(join(dir, file), content);
const cut = (file: string, keep: number) => (dir: string) => writeFileSync(join(dir, file), readFileSync(join(dir, file)).subarray(0, keep));
const folderInstead = (file: string) => (dir: string) => {
  rmSync(join(dir, file));
  mkdirSync(join(dir, file));
};

/** A one-graph model over input_ids of the given type and shape, with the given output. */
function graph(input: { type?: "int64" | "float"; shape?: (number | string)[] }, output: (g: GraphBuilder, ids: string) => void): Uint8Array {
  const g = new GraphBuilder();
  output(g, g.input("input_ids", input.type ?? "int64", input.shape ?? ["batch", "sequence"]));
  return g.serialize("damaged-model test");
}
const asFloat = (g: GraphBuilder, ids: string) => g.op("Cast", [ids], [{ name: "to", int: 1 }]);

/** The tiny model is a WordPiece BERT with 4,527 token rows; this Unigram tokenizer (XLM-R's kind) gives ids up to 6,000. */
function otherModelsTokenizer(): string {
  const json = unigramJson() as { model: { vocab: [string, number][] } };
  for (let i = json.model.vocab.length; i < 6000; i++) json.model.vocab.push([`▁filler${i}`, -20]);
  return JSON.stringify(json);
}

const TOKENIZER_FIX = "Put the model's own tokenizer.json";
const FOLDER_FIX = "MODEL_NAME must be a known model id or an absolute path";
const ONNX_FIX = "The ONNX file is damaged or not a model";
const BERT_FIX = "BERT-style sentence-embedding model";
const OUTPUT_FIX = "whose output is float token states";

const DAMAGES: Damage[] = [
  { name: "tokenizer.json missing", damage: (d) => rmSync(join(d, "tokenizer.json")), reason: "No tokenizer.json in the model folder", fix: FOLDER_FIX },
  { name: "tokenizer.json a dangling link", damage: (d) => (rmSync(join(d, "tokenizer.json")), symlinkSync("/nonexistent/tokenizer.json", join(d, "tokenizer.json"))), reason: "No tokenizer.json", fix: FOLDER_FIX },
  { name: "tokenizer.json empty", damage: write("tokenizer.json", ""), reason: "JSON Parse error", fix: FOLDER_FIX, names: "tokenizer.json" },
  { name: "tokenizer.json truncated", damage: cut("tokenizer.json", 5000), reason: "JSON Parse error", fix: FOLDER_FIX, names: "tokenizer.json" },
  { name: "tokenizer.json is {}", damage: write("tokenizer.json", "{}"), reason: 'is not a tokenizer: it has no "model" object', fix: TOKENIZER_FIX, names: "tokenizer.json" },
  { name: "tokenizer.json is null", damage: write("tokenizer.json", "null"), reason: "is not a tokenizer", fix: TOKENIZER_FIX, names: "tokenizer.json" },
  { name: "tokenizer.json is an array", damage: write("tokenizer.json", "[1, 2]"), reason: "is not a tokenizer", fix: TOKENIZER_FIX, names: "tokenizer.json" },
  { name: "tokenizer.json of an unknown kind", damage: write("tokenizer.json", JSON.stringify({ model: { type: "Mystery" } })), reason: "cannot be used as a tokenizer", fix: TOKENIZER_FIX, names: "tokenizer.json" },
  { name: "tokenizer.json of another model", damage: (d) => write("tokenizer.json", otherModelsTokenizer())(d), reason: "failed on a test input of token id", fix: TOKENIZER_FIX, names: "tokenizer.json" },
  { name: "tokenizer.json unreadable", damage: folderInstead("tokenizer.json"), reason: "Cannot read", fix: FOLDER_FIX, names: "tokenizer.json" },
  { name: "model.onnx empty", damage: write("model.onnx", ""), reason: "could not be loaded", fix: ONNX_FIX, names: "model.onnx" },
  { name: "model.onnx truncated", damage: cut("model.onnx", 300_000), reason: "could not be loaded", fix: ONNX_FIX, names: "model.onnx" },
  { name: "model.onnx not a model", damage: write("model.onnx", "not a model"), reason: "could not be loaded", fix: ONNX_FIX, names: "model.onnx" },
  { name: "model.onnx unreadable", damage: folderInstead("model.onnx"), reason: "Cannot read", fix: FOLDER_FIX, names: "model.onnx" },
  {
    name: "a graph without input_ids",
    damage: (d) => {
      const g = new GraphBuilder();
      g.op("Unsqueeze", [g.op("Cast", [g.input("tokens", "int64", ["b", "s"])], [{ name: "to", int: 1 }]), g.ints("axes", [1], [2])], [], "last_hidden_state");
      g.output("last_hidden_state", "float", ["b", "s", 1]);
      write("model.onnx", g.serialize("damaged-model test"))(d);
    },
    reason: "has no input_ids input (inputs: tokens)",
    fix: BERT_FIX,
  },
  {
    name: "a graph taking float input_ids",
    damage: write("model.onnx", graph({ type: "float" }, (g, ids) => (g.op("Unsqueeze", [ids, g.ints("axes", [1], [2])], [], "last_hidden_state"), g.output("last_hidden_state", "float", ["batch", "sequence", 1])))),
    reason: "takes input_ids as float32; this embedder feeds int64",
    fix: BERT_FIX,
  },
  {
    name: "a graph of a fixed input shape",
    damage: write("model.onnx", graph({ shape: [1, 128] }, (g, ids) => (g.op("Unsqueeze", [asFloat(g, ids), g.ints("axes", [1], [2])], [], "last_hidden_state"), g.output("last_hidden_state", "float", [1, 128, 1])))),
    reason: "fixed shape [1, 128]",
    fix: "dynamic batch and sequence axes",
  },
  {
    name: "a graph with an integer output",
    damage: write("model.onnx", graph({}, (g, ids) => (g.op("Unsqueeze", [ids, g.ints("axes", [1], [2])], [], "last_hidden_state"), g.output("last_hidden_state", "int64", ["batch", "sequence", 1])))),
    reason: "returns last_hidden_state as int64, not float32",
    fix: OUTPUT_FIX,
  },
  {
    name: "a graph with one number per text",
    damage: write("model.onnx", graph({}, (g, ids) => (g.op("ReduceSum", [asFloat(g, ids), g.ints("axes", [1], [1])], [{ name: "keepdims", int: 0 }], "pooled"), g.output("pooled", "float", ["batch"])))),
    reason: "returns pooled of shape [batch]",
    fix: OUTPUT_FIX,
  },
  {
    name: "a graph whose width follows the text's length",
    damage: write("model.onnx", graph({}, (g, ids) => (g.op("Cast", [ids], [{ name: "to", int: 1 }], "last_hidden_state"), g.output("last_hidden_state", "float", ["batch", "sequence"])))),
    reason: "does not give one vector of a fixed width per text: it returned 1 numbers for 1 token and 5 for 5",
    fix: "MODEL_NAME must name a sentence-embedding model",
  },
  { name: "config.json empty", damage: write("config.json", ""), reason: "JSON Parse error", fix: FOLDER_FIX, names: "config.json" },
  { name: "config.json truncated", damage: cut("config.json", 20), reason: "JSON Parse error", fix: FOLDER_FIX, names: "config.json" },
  { name: "tokenizer_config.json truncated", damage: cut("tokenizer_config.json", 20), reason: "JSON Parse error", fix: FOLDER_FIX, names: "tokenizer_config.json" },
  { name: "minirag-profile.json empty", damage: write("minirag-profile.json", ""), reason: "is not valid JSON", fix: "Fix the field or delete the file", names: "minirag-profile.json" },
  { name: "minirag-profile.json with a wrong value", damage: write("minirag-profile.json", '{"pooling": "max"}'), reason: "field pooling", fix: "Fix the field or delete the file", names: "minirag-profile.json" },
];

function damagedCopy(damage: Damage): string {
  const dir = join(tempDir("minirag-damaged-model-"), "model");
  mkdirSync(dir);
  for (const file of ["model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json"]) copyFileSync(join(TINY_MODEL, file), join(dir, file));
  damage.damage(dir);
  return dir;
}

describe("a damaged model folder gives keyword-only mode in the compiled binary, never a failed sync", () => {
  test.each(DAMAGES.map((d) => [d.name, d] as const))("%s", async (_, damage) => {
    const model = damagedCopy(damage);
    const root = tempDir("minirag-root-");
    writeFileSync(join(root, "pumps.md"), "# Pumps\n\nThe centrifugal pump moves coolant through the heat exchanger.");
    const env = { ...binaryEnv([root], join(tempDir("minirag-db-"), "lancedb")), MODEL_NAME: model, CACHE_DIR: tempDir("minirag-cache-") };
    const named = (stderr: string) => {
      expect(stderr).toContain(damage.reason);
      expect(stderr).toContain(damage.fix);
      expect(stderr).toContain(join(model, damage.names ?? ""));
    };

    const sync = await run(["sync"], env);
    expect(sync.stdout).toContain("ingested 1,");
    expect(sync.stdout).toContain("failed 0");
    expect(sync.stderr).toStartWith("warn: No embedding model could load, so search uses keywords only");
    expect(sync.stderr.match(/^warn: /gm)).toHaveLength(1);
    named(sync.stderr);
    expect(sync.exitCode).toBe(0);

    const query = await run(["query", "centrifugal pump"], env);
    expect(query.stdout).toContain("keyword] pumps.md #0");
    expect(query.stderr).toStartWith("warn: Keyword search only.");
    named(query.stderr);
    expect(query.exitCode).toBe(0);
  }, 60_000);
});
