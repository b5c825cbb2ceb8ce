/**
 * Re-labelling at sync (src/labels/relabel.ts): documents a model problem
 * left unlabelled are asked again only when the model loads, so a sync while
 * it cannot load does not read their stored text at all.
 */
import { describe, expect, test } from "bun:test";
import type { ChunkStore } from "../../src/store/chunk-store.ts";
import { join } from "node:path";
import { labelContext } from "../../src/labels/labeller.ts";
import { relabelStored } from "../../src/labels/relabel.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

const taxonomy = (model: string) => `
[model]
path = "${model}"
temperature = 2

[facets.type]
values.minutes = { description = "Minutes." }
values.other = { description = "Anything else." }
`;

/** The store with a count of its reads of chunk text (every other read relabel makes is of label columns). */
function counting(store: ChunkStore): { store: ChunkStore; textReads: () => number } {
  let reads = 0;
  const read = store.mentionRows.bind(store);
  store.mentionRows = (sources) => {
    reads++;
    return read(sources);
  };
  return { store, textReads: () => reads };
}

describe("re-labelling documents that wait for the label model", () => {
  test("while the model cannot load, their text is not read and the reason is still reported for each", async () => {
    const { app, root } = await testApp();
    const missing = join(tempDir("minirag-no-gguf-"), "absent.gguf");
    writeTree(root, { ".minirag/classify.toml": taxonomy(missing), "a.md": "# Weekly sync\n\nNotes.", "b.md": "# Other\n\nText." });
    await runSync(app);
    const { store, textReads } = counting(app.store);
    const report = await relabelStored(app, labelContext(app, () => {}), store);
    expect(textReads()).toBe(0);
    expect(report.relabelled).toBe(0);
    expect(report.problems.map((p) => p.source).sort()).toEqual([join(root, "a.md"), join(root, "b.md")]);
    expect(report.problems[0]!.problem).toContain(`The label model file ${missing} does not exist`);
  });

  test("documents labelled under another taxonomy are still read and re-labelled while the model is missing", async () => {
    const { app, root } = await testApp();
    const missing = join(tempDir("minirag-no-gguf-"), "absent.gguf");
    writeTree(root, { ".minirag/classify.toml": taxonomy(missing), "a.md": "# Weekly sync\n\nNotes." });
    await runSync(app);
    // A facet answered by a default now: a new taxonomy, so the document is labelled again from its text.
    writeTree(root, { ".minirag/classify.toml": `${taxonomy(missing)}\n[facets.project]\ndefault = "main"\nvalues.main = { description = "Main." }\n` });
    const { store, textReads } = counting(app.store);
    const report = await relabelStored(app, labelContext(app, () => {}), store);
    expect(textReads()).toBeGreaterThan(0);
    expect(report.relabelled).toBe(1);
  });
});
