/**
 * Model-answered facets through the real index with a scripted scorer in
 * place of llama.cpp: model labels with confidence and runner-up are stored
 * and shown, uncertain labels filter softly, a scorer that fails leaves the
 * facet unset, and the first sync after it works labels those documents from
 * their stored text.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { listFiles } from "../../src/read/list-files.ts";
import { join } from "node:path";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import type { ScorerFactory } from "../../src/labels/label-scorer.ts";
import { releaseLabeller, useScorerFactory } from "../../src/labels/labeller.ts";
import { fullStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

/** The scripted scorer never reads it; status only checks that it is there. */
const modelFile = join(tempDir("minirag-scripted-"), "model.gguf");
await Bun.write(modelFile, "scripted");

const TAXONOMY = `
[model]
path = "${modelFile}"
temperature = 1
uncertain_below = 0.7

[facets.type]
values.minutes = { description = "Minutes." }
values.report = { description = "Report." }
values.mail = { description = "Mail." }
`;

/** Answers by the file name: minutes.md is clear minutes, unsure.md leans minutes over report. */
const byName: Record<string, number[]> = { "minutes.md": [0.9, 0.05, 0.05], "unsure.md": [0.5, 0.4, 0.1], "mail.md": [0.05, 0.05, 0.9] };
let loads = 0;
let released = 0;
const scripted: ScorerFactory = async () => {
  loads++;
  return { logits: async (request) => byName[request.fileName!]!.map(Math.log), release: async () => void released++ };
};
const failing: ScorerFactory = async () => {
  throw new Error("scripted: no model yet");
};

let ctx: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  ctx = await testApp();
  writeTree(ctx.root, { ".minirag/classify.toml": TAXONOMY, "minutes.md": "# Sync\n\nAttendees.", "unsure.md": "# Notes\n\nSome findings.", "mail.md": "From: a\n\nHello." });
});

describe("a model-answered facet", () => {
  test("while the model cannot run, sync stores every document unlabelled and says why once", async () => {
    useScorerFactory(ctx.app, failing);
    const report = await runSync(ctx.app);
    expect(report.counts).toMatchObject({ ingested: 3, failed: 0 });
    expect(report.errors.map((e) => e.error)).toEqual(["3 documents: the label model could not answer type: scripted: no model yet"]);
    const listing = await listFiles(ctx.app, undefined, { labels: { type: "minutes" } });
    expect(listing).toMatchObject({ files: [], filterCounts: { unlabelled: 3, undated: 0 } });
  });

  test("the first sync after the model works labels them from their stored text, loading the model once and releasing it", async () => {
    useScorerFactory(ctx.app, scripted);
    const report = await runSync(ctx.app);
    expect(report.counts).toMatchObject({ ingested: 0, relabelled: 3 });
    expect(report.errors).toEqual([]);
    expect([loads, released]).toEqual([1, 1]);
    const { files } = await listFiles(ctx.app);
    const byPath = Object.fromEntries(files.map((f) => [f.displayPath, f.labels!.type]));
    expect(byPath["minutes.md"]).toEqual({ value: "minutes", confidence: 0.9, source: "model", runnerUp: "report", uncertain: false });
    expect(byPath["unsure.md"]).toEqual({ value: "minutes", confidence: 0.5, source: "model", runnerUp: "report", uncertain: true });
  });

  test("an uncertain label matches its runner-up too; a confident one does not", async () => {
    const reports = await listFiles(ctx.app, undefined, { labels: { type: "report" } });
    expect(reports.files.map((f) => f.displayPath)).toEqual(["unsure.md"]);
    const minutes = await listFiles(ctx.app, undefined, { labels: { type: "minutes" } });
    expect(minutes.files.map((f) => f.displayPath).sort()).toEqual(["minutes.md", "unsure.md"]);
    expect(minutes.filterCounts).toEqual({ unlabelled: 0, undated: 0 });
  });

  test("status counts values, uncertain labels and nothing unlabelled", async () => {
    const facet = ((await fullStatus(ctx.app)).labels as any).facets.type;
    expect(facet).toMatchObject({ model: true, unlabelled: 0, uncertain: 1 });
    expect(Object.fromEntries(Object.entries(facet.values).map(([v, s]: [string, any]) => [v, s.documents]))).toEqual({ minutes: 2, report: 0, mail: 1 });
  });

  test("a further sync asks nothing again", async () => {
    expect((await runSync(ctx.app)).counts.relabelled).toBe(0);
    expect(loads).toBe(1);
  });

  test("a single ingest keeps the model loaded (status says so) until it goes idle or the job is released", async () => {
    const result = await ingestFile(ctx.app, join(ctx.root, "mail.md"));
    expect(result.labelProblem).toBeUndefined();
    expect(((await fullStatus(ctx.app)).labels as any).model).toBe("loaded");
    await releaseLabeller(ctx.app);
    expect(((await fullStatus(ctx.app)).labels as any).model).toBe("on-demand");
  });
});
