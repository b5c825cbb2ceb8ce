/**
 * The label model of a single ingest is freed once it has gone unused for a
 * while. A document that starts labelling just before that moment must keep
 * the model until it is done: freeing a llama.cpp model mid-answer is a
 * use-after-free in the MCP server.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Labeller, type ScorerFactory } from "../../src/labels/labeller.ts";
import { tempDir, writeTree } from "../helpers.ts";

const root = tempDir("minirag-idle-");
const modelFile = join(root, "model.gguf");
writeTree(root, {
  "model.gguf": "scripted",
  ".minirag/classify.toml": `[model]\npath = "${modelFile}"\ntemperature = 1\n\n[facets.type]\nvalues.minutes = { description = "Minutes." }\nvalues.report = { description = "Report." }\n`,
});

test("a document labelled as the idle timer fires keeps the model until its answer is in, and the model is freed after it", async () => {
  const events: string[] = [];
  let freed = false;
  const slow: ScorerFactory = async () => ({
    logits: async () => {
      events.push(freed ? "asked a freed model" : "asked");
      await Bun.sleep(120);
      events.push(freed ? "answered from a freed model" : "answered");
      return [2, 1];
    },
    release: async () => {
      freed = true;
      events.push("freed");
    },
  });
  const labeller = new Labeller({ roots: [root], cacheDir: root, hfEndpoint: "http://127.0.0.1:9", log: () => {} }, slow, 50);
  const doc = (name: string) => ({ source: join(root, name), sourceType: "file" as const, text: "# Notes", mtimeMs: Date.now() });
  await labeller.label(doc("a.md"));
  labeller.releaseWhenIdle();
  await Bun.sleep(30);
  // The second ingest starts 30 ms into the 50 ms idle wait and takes 120 ms to answer.
  const { labels } = await labeller.label(doc("b.md"));
  expect(labels?.labels.type?.value).toBe("minutes");
  labeller.releaseWhenIdle();
  await Bun.sleep(100);
  expect(events).toEqual(["asked", "answered", "asked", "answered", "freed"]);
});
