/**
 * Labels through the real index (LanceDB and the tiny ONNX model): path and
 * default facets labelled at sync, stored on chunk 0, shown on rows, used by
 * filters, counted in status, and re-labelled from stored text when
 * classify.toml changes or a file moves.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { renameSync, mkdirSync, writeFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { listFiles } from "../../src/read/list-files.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { fullStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, testApp, writeTree } from "../helpers.ts";

const TAXONOMY = `
[facets.project]
default = "main"
values.main = { description = "The main product." }
values.pilots = { description = "Pilot projects.", paths = ["pilots"] }

[facets.kind]
within = ["pilots"]
default = "note"
values.note = { description = "A note." }
values.spec = { description = "A specification.", paths = ["pilots/specs"] }
`;

const OLD = new Date("2020-03-04T10:00:00Z");

let ctx: Awaited<ReturnType<typeof testApp>>;
const path = (p: string) => join(ctx.root, p);

beforeAll(async () => {
  ctx = await testApp();
  writeTree(ctx.root, {
    ".minirag/classify.toml": TAXONOMY,
    "minutes/2026-08-05 weekly.md": "# Weekly sync\n\nThe coolant pump was discussed.",
    "pilots/specs/pump-spec.md": "Date: 12.08.2026\n\n# Pump spec\n\nThe coolant pump moves 40 litres a minute.",
    "pilots/ideas.md": "# Ideas\n\nA quieter coolant pump.",
  });
  utimesSync(path("pilots/ideas.md"), OLD, OLD);
  const report = await runSync(ctx.app);
  expect(report.counts.ingested).toBe(3);
});

describe("labels at sync", () => {
  test("list_files rows carry each facet's label with its source, and the date with where it came from", async () => {
    const { files } = await listFiles(ctx.app);
    const byPath = Object.fromEntries(files.map((f) => [f.displayPath, f]));
    expect(byPath["minutes/2026-08-05 weekly.md"]).toMatchObject({ labels: { project: { value: "main", source: "default", confidence: 1, runnerUp: null, uncertain: false } }, date: "2026-08-05", dateSource: "name" });
    expect(byPath["minutes/2026-08-05 weekly.md"]!.labels!.kind).toBeUndefined();
    expect(byPath["pilots/specs/pump-spec.md"]).toMatchObject({ labels: { project: { value: "pilots", source: "path" }, kind: { value: "spec", source: "path" } }, date: "2026-08-12", dateSource: "document" });
    expect(byPath["pilots/ideas.md"]).toMatchObject({ labels: { project: { value: "pilots" }, kind: { value: "note", source: "default" } }, date: "2020-03-04", dateSource: "file" });
  });

  test("a label filter keeps the matching documents; values of one facet are alternatives and facets combine", async () => {
    const pilots = await listFiles(ctx.app, undefined, { labels: { project: "pilots" } });
    expect(pilots.files.map((f) => f.displayPath).sort()).toEqual(["pilots/ideas.md", "pilots/specs/pump-spec.md"]);
    expect(pilots.filterCounts).toEqual({ unlabelled: 0, undated: 0 });
    const either = await listFiles(ctx.app, undefined, { labels: { kind: ["spec", "note"], project: "pilots" } });
    expect(either.files).toHaveLength(2);
    const specs = await listFiles(ctx.app, undefined, { labels: { kind: "spec" } });
    expect(specs.files.map((f) => f.displayPath)).toEqual(["pilots/specs/pump-spec.md"]);
  });

  test("a document outside a facet's within is left out of that facet's filter and is not counted", async () => {
    const notes = await listFiles(ctx.app, undefined, { labels: { kind: "note" } });
    expect(notes.files.map((f) => f.displayPath)).toEqual(["pilots/ideas.md"]);
    expect(notes.filterCounts).toEqual({ unlabelled: 0, undated: 0 });
  });

  test("dates filter inclusively, and sort date lists newest first", async () => {
    const august = await listFiles(ctx.app, undefined, { dateFrom: "2026-08-05", dateTo: "2026-08-12" });
    expect(august.files.map((f) => f.date).sort()).toEqual(["2026-08-05", "2026-08-12"]);
    const sorted = await listFiles(ctx.app, undefined, { sort: "date" });
    expect(sorted.files.filter((f) => f.date !== undefined).map((f) => f.date)).toEqual(["2026-08-12", "2026-08-05", "2020-03-04"]);
  });

  test("query_documents searches only the filtered documents and its sources carry labels and dates", async () => {
    const result = await queryDocuments(ctx.app, { query: "coolant pump", labels: { project: "pilots" } });
    expect(result.results.length).toBeGreaterThan(0);
    expect(new Set(result.results.map((r) => r.source))).toEqual(new Set([path("pilots/specs/pump-spec.md"), path("pilots/ideas.md")]));
    expect(result.sources.find((s) => s.source === path("pilots/specs/pump-spec.md"))).toMatchObject({ labels: { kind: { value: "spec" } }, date: "2026-08-12", dateSource: "document" });
    expect(result.filterCounts).toEqual({ unlabelled: 0, undated: 0 });
  });

  test("a filter that keeps nothing answers with no results and its counts", async () => {
    const result = await queryDocuments(ctx.app, { query: "coolant pump", dateFrom: "2030-01-01" });
    expect(result).toMatchObject({ results: [], sources: [], filterCounts: { unlabelled: 0, undated: 0 } });
  });

  test("an unknown facet, an unknown value and a malformed date are refused with what is valid", async () => {
    expect((await failure(queryDocuments(ctx.app, { query: "pump", labels: { type: "spec" } }))).message).toBe("Unknown label facet \"type\". Facets and their values: project (main, pilots); kind (note, spec).");
    expect((await failure(listFiles(ctx.app, undefined, { labels: { kind: "memo" } }))).message).toBe("Unknown value \"memo\" for facet kind. Its values: note, spec.");
    expect((await failure(listFiles(ctx.app, undefined, { dateFrom: "2026-02-30" }))).message).toContain("dateFrom must be a date written YYYY-MM-DD");
    expect((await failure(queryDocuments(ctx.app, { query: "pump", dateTo: "12.08.2026" }))).code).toBe("INVALID_ARGUMENT");
  });

  test("status has a labels block: questions, values with descriptions and counts, unlabelled, uncertain, undated", async () => {
    const status = await fullStatus(ctx.app);
    expect(status.labels).toEqual({
      file: path(".minirag/classify.toml"),
      facets: {
        project: { question: "What kind of document is this?", model: false, values: { main: { description: "The main product.", documents: 1 }, pilots: { description: "Pilot projects.", documents: 2 } }, unlabelled: 0, uncertain: 0 },
        kind: { question: "What kind of document is this?", model: false, values: { note: { description: "A note.", documents: 1 }, spec: { description: "A specification.", documents: 1 } }, unlabelled: 0, uncertain: 0 },
      },
      undated: 0,
    });
  });
});

describe("re-labelling at sync", () => {
  test("an unchanged corpus re-labels nothing", async () => {
    expect((await runSync(ctx.app)).counts).toMatchObject({ ingested: 0, relabelled: 0 });
  });

  test("a changed classify.toml re-labels every document from its stored text, with nothing ingested again", async () => {
    // A second later, so the changed file has another mtime even on a coarse clock.
    writeFileSync(path(".minirag/classify.toml"), TAXONOMY.replace('default = "main"', 'default = "core"').replace("values.main =", "values.core ="));
    utimesSync(path(".minirag/classify.toml"), new Date(Date.now() + 2000), new Date(Date.now() + 2000));
    // Until the sync, documents keep the labels of the old taxonomy; a value it dropped is counted nowhere.
    const before = (await fullStatus(ctx.app)).labels as any;
    expect(before.facets.project.values).toEqual({ core: { description: "The main product.", documents: 0 }, pilots: { description: "Pilot projects.", documents: 2 } });
    const { counts } = await runSync(ctx.app);
    expect(counts).toMatchObject({ ingested: 0, relabelled: 3 });
    const { files } = await listFiles(ctx.app, undefined, { labels: { project: "core" } });
    expect(files.map((f) => f.displayPath)).toEqual(["minutes/2026-08-05 weekly.md"]);
  });

  test("a moved file is re-labelled by its new folder's path rules, without being read again", async () => {
    mkdirSync(path("pilots/more"), { recursive: true });
    renameSync(path("minutes/2026-08-05 weekly.md"), path("pilots/more/2026-08-05 weekly.md"));
    const { counts } = await runSync(ctx.app);
    expect(counts).toMatchObject({ moved: 1, ingested: 0, relabelled: 1 });
    const { files } = await listFiles(ctx.app, undefined, { labels: { project: "pilots" } });
    expect(files.map((f) => f.displayPath).sort()).toEqual(["pilots/ideas.md", "pilots/more/2026-08-05 weekly.md", "pilots/specs/pump-spec.md"]);
  });

  test("a classify.toml that cannot be parsed shows in status and makes filters refuse with the same message", async () => {
    writeFileSync(path(".minirag/classify.toml"), "[facets.project\n");
    utimesSync(path(".minirag/classify.toml"), new Date(Date.now() + 4000), new Date(Date.now() + 4000));
    const status = await fullStatus(ctx.app);
    const error = (status.labels as any).error as string;
    expect(error).toStartWith(`${path(".minirag/classify.toml")}: not valid TOML`);
    expect((await failure(listFiles(ctx.app, undefined, { labels: { project: "core" } }))).message).toBe(error);
    const sync = await runSync(ctx.app);
    expect(sync.counts.failed).toBe(0);
    expect(sync.errors).toEqual([{ source: path(".minirag/classify.toml"), error: `labels not updated: ${error}` }]);
  });
});
