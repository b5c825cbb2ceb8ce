/**
 * A sync is one labelling job: the label model it loads stays loaded until
 * the sync ends, however long the gaps between its documents, and is freed
 * then. (A single ingest's idle release must not free and reload a
 * multi-gigabyte model between a sync's batches.)
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { ScorerFactory } from "../../src/labels/label-scorer.ts";
import { useScorerFactory } from "../../src/labels/labeller.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { fakeClock } from "../fake-clock.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

const modelFile = join(tempDir("minirag-scripted-"), "model.gguf");
await Bun.write(modelFile, "scripted");

test("a sync that labels new files and then re-labels old ones loads the model once and frees it at its end, even with an idle release of 1 ms", async () => {
  const ctx = await testApp();
  writeTree(ctx.root, {
    ".minirag/classify.toml": `[model]\npath = "${modelFile}"\ntemperature = 1\n\n[facets.type]\nvalues.minutes = { description = "Minutes." }\nvalues.report = { description = "Report." }\n`,
    "a.md": "# A\n\nAttendees.",
    "b.md": "# B\n\nFindings.",
  });
  useScorerFactory(ctx.app, async () => {
    throw new Error("scripted: no model yet");
  });
  await runSync(ctx.app);

  let loads = 0;
  let released = 0;
  const clock = fakeClock();
  const scripted: ScorerFactory = async () => {
    loads++;
    return {
      logits: async () => {
        // A document's answer takes a while, as a real model's does: longer than the idle release.
        clock.advance(10);
        return [2, 1];
      },
      release: async () => void released++,
    };
  };
  useScorerFactory(ctx.app, scripted, { idleMs: 1, clock });
  // So does each commit, between one batch's labels and the next document's: an idle release armed then would come due.
  const commit = ctx.app.store.replaceSources.bind(ctx.app.store);
  ctx.app.store.replaceSources = async (...args) => {
    clock.advance(10);
    return commit(...args);
  };
  writeTree(ctx.root, { "c.md": "# C\n\nNew minutes." });
  const report = await runSync(ctx.app);
  expect(report.counts).toMatchObject({ ingested: 1, relabelled: 2 });
  expect([loads, released]).toEqual([1, 1]);
});
