/** Look-alike documents end to end: signed at ingest into real LanceDB, kept through moves and deletes, and an older index signed by sync from its stored text. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { findMentions } from "../../src/search/find-mentions.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { fullStatus } from "../../src/status.ts";
import { readSignatures } from "../../src/store/signatures.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { FIXTURES, testApp, writeTree } from "../helpers.ts";

const HANDBOOK = readFileSync(join(FIXTURES, "chunk/warehouse-handbook.md"), "utf8");
const LIGHTHOUSES = readFileSync(join(FIXTURES, "chunk/lighthouses.md"), "utf8");
/** The handbook's next version: one paragraph rewritten, one added. */
const HANDBOOK_V2 = HANDBOOK.replace(/Heavy items go on the lowest shelves[^\n]*/, "Heavy items go on the two lowest shelves, and pallets are never stacked more than two high.").concat(
  "\n\n## Changes in this version\n\nThe storage rules were tightened after the spring audit.\n",
);
/** The first third of the handbook: wholly contained in it, so it overlaps by about a third and is not a look-alike. */
const HANDBOOK_EXCERPT = HANDBOOK.slice(0, Math.floor(HANDBOOK.length / 3));

async function syncedApp(files: Record<string, string>): Promise<{ app: App; root: string }> {
  const { app, root } = await testApp();
  writeTree(root, files);
  const report = await runSync(app);
  expect(report.counts).toMatchObject({ ingested: Object.keys(files).length, failed: 0, signed: 0 });
  return { app, root };
}

async function lookAlikesByPath(app: App, term: string): Promise<Record<string, string[] | undefined>> {
  const result = await findMentions(app, { terms: [term], match: "any" });
  return Object.fromEntries(result.documents.map((d) => [d.displayPath, d.lookAlikes?.map((l) => l.displayPath)]));
}

describe("look-alikes", () => {
  test("two versions name each other; an excerpt a third as long and an unrelated text are not flagged", async () => {
    const { app } = await syncedApp({ "handbook.md": HANDBOOK, "archive/handbook-v2.md": HANDBOOK_V2, "excerpt.md": HANDBOOK_EXCERPT, "lighthouses.md": LIGHTHOUSES });
    const result = await findMentions(app, { terms: ["warehouse", "lighthouse"], match: "any" });
    const byPath = Object.fromEntries(result.documents.map((d) => [d.displayPath, d]));
    expect(byPath["handbook.md"]!.lookAlikes).toEqual([{ source: expect.stringContaining("archive/handbook-v2.md"), displayPath: "archive/handbook-v2.md", overlap: expect.any(Number) }]);
    expect(byPath["handbook.md"]!.lookAlikes![0]!.overlap).toBeGreaterThanOrEqual(0.5);
    expect(byPath["archive/handbook-v2.md"]!.lookAlikes!.map((l) => l.displayPath)).toEqual(["handbook.md"]);
    // A row with none has no key at all.
    expect("lookAlikes" in byPath["excerpt.md"]!).toBe(false);
    expect("lookAlikes" in byPath["lighthouses.md"]!).toBe(false);
  });

  test("query_documents sources carry lookAlikes too, from the whole index whatever the scope", async () => {
    const { app, root } = await syncedApp({ "handbook.md": HANDBOOK, "archive/handbook-v2.md": HANDBOOK_V2, "lighthouses.md": LIGHTHOUSES });
    const scoped = await queryDocuments(app, { query: "delivery note pallets", scope: [join(root, "handbook.md")] });
    expect(scoped.sources.map((s) => [s.displayPath, s.lookAlikes?.map((l) => l.displayPath)])).toEqual([["handbook.md", ["archive/handbook-v2.md"]]]);
    const found = await findMentions(app, { terms: ["pallets"], scope: [join(root, "archive")] });
    expect(found.documents.map((d) => [d.displayPath, d.lookAlikes?.map((l) => l.displayPath)])).toEqual([["archive/handbook-v2.md", ["handbook.md"]]]);
  });

  test("with a classify.toml, a look-alike carries its document date, so the newer version shows", async () => {
    const taxonomy = '[facets.kind]\ndefault = "doc"\nvalues.doc = { description = "A document." }\n';
    const { app, root } = await testApp();
    writeTree(root, { ".minirag/classify.toml": taxonomy, "handbook.md": `Date: 12.08.2025\n\n${HANDBOOK}`, "archive/handbook-v2.md": `Date: 2026-09-01\n\n${HANDBOOK_V2}` });
    expect((await runSync(app)).counts).toMatchObject({ ingested: 2, failed: 0 });
    const result = await findMentions(app, { terms: ["warehouse"], match: "any" });
    const byPath = Object.fromEntries(result.documents.map((d) => [d.displayPath, d.lookAlikes]));
    expect(byPath["handbook.md"]).toEqual([expect.objectContaining({ displayPath: "archive/handbook-v2.md", date: "2026-09-01" })]);
    expect(byPath["archive/handbook-v2.md"]).toEqual([expect.objectContaining({ displayPath: "handbook.md", date: "2025-08-12" })]);
  });

  test("once classify.toml is removed, a look-alike has no date key, though the dates stay stored", async () => {
    const taxonomy = '[facets.kind]\ndefault = "doc"\nvalues.doc = { description = "A document." }\n';
    const { app, root } = await testApp();
    writeTree(root, { ".minirag/classify.toml": taxonomy, "handbook.md": `Date: 12.08.2025\n\n${HANDBOOK}`, "archive/handbook-v2.md": `Date: 2026-09-01\n\n${HANDBOOK_V2}` });
    await runSync(app);
    rmSync(join(root, ".minirag", "classify.toml"));
    const found = await findMentions(app, { terms: ["warehouse"], match: "any" });
    const queried = await queryDocuments(app, { query: "warehouse delivery pallets" });
    const lookAlikes = [...found.documents, ...queried.sources].flatMap((d) => d.lookAlikes ?? []);
    expect(lookAlikes.length).toBeGreaterThan(0);
    for (const l of lookAlikes) expect("date" in l).toBe(false);
  });

  test("without a classify.toml a look-alike has no date key", async () => {
    const { app } = await syncedApp({ "handbook.md": `Date: 12.08.2025\n\n${HANDBOOK}`, "archive/handbook-v2.md": HANDBOOK_V2 });
    const result = await findMentions(app, { terms: ["warehouse"], match: "any" });
    for (const doc of result.documents) for (const l of doc.lookAlikes ?? []) expect("date" in l).toBe(false);
    expect(result.documents.some((d) => d.lookAlikes?.length)).toBe(true);
  });

  test("up to three look-alikes, most overlap first", async () => {
    const versions = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`v${i}.md`, HANDBOOK.split("\n\n").filter((_, p) => p % 7 !== i).join("\n\n")]),
    );
    const { app } = await syncedApp({ "handbook.md": HANDBOOK, ...versions });
    const result = await findMentions(app, { terms: ["warehouse"] });
    const first = result.documents.find((d) => d.displayPath === "handbook.md")!;
    expect(first.lookAlikes!.length).toBe(3);
    const overlaps = first.lookAlikes!.map((l) => l.overlap);
    expect(overlaps).toEqual([...overlaps].sort((a, b) => b - a));
  });

  test("a moved file keeps its signature and is named at its new path; a deleted one is named no more", async () => {
    const { app, root } = await syncedApp({ "handbook.md": HANDBOOK, "handbook-v2.md": HANDBOOK_V2 });
    mkdirSync(join(root, "old"));
    renameSync(join(root, "handbook-v2.md"), join(root, "old/handbook-v2.md"));
    expect((await runSync(app)).counts).toMatchObject({ moved: 1, ingested: 0, signed: 0 });
    expect(await lookAlikesByPath(app, "warehouse")).toEqual({ "handbook.md": ["old/handbook-v2.md"], "old/handbook-v2.md": ["handbook.md"] });
    expect((await fullStatus(app)).unsignedSourceCount).toBeUndefined();
    rmSync(join(root, "old/handbook-v2.md"));
    expect((await runSync(app)).counts).toMatchObject({ deleted: 1 });
    expect(await lookAlikesByPath(app, "warehouse")).toEqual({ "handbook.md": undefined });
  });

  test("data items are signed at ingest like files", async () => {
    const { app } = await syncedApp({ "handbook.md": HANDBOOK });
    await ingestData(app, { source: "pasted/handbook", content: HANDBOOK_V2, format: "markdown" });
    expect(await lookAlikesByPath(app, "warehouse")).toEqual({ "handbook.md": ["pasted/handbook"], "pasted/handbook": ["handbook.md"] });
    expect((await fullStatus(app)).unsignedSourceCount).toBeUndefined();
  });

  test("an index built before signatures is counted in status, then signed by the next sync from its stored text alone", async () => {
    const { app } = await syncedApp({ "handbook.md": HANDBOOK, "handbook-v2.md": HANDBOOK_V2, "lighthouses.md": LIGHTHOUSES });
    const table = (await app.store.open())!;
    const atIngest = await readSignatures(table);
    expect(atIngest.length).toBe(3);
    await table.dropColumns(["minhash"]);
    expect((await fullStatus(app)).unsignedSourceCount).toBe(3);
    expect(await lookAlikesByPath(app, "warehouse")).toEqual({ "handbook.md": undefined, "handbook-v2.md": undefined });
    // A write can add the column (all nulls) before the sync signs anything: searches still answer, with no look-alikes.
    await table.addColumns([{ name: "minhash", valueSql: "CAST(NULL AS STRING)" }]);
    expect(await readSignatures(table)).toEqual([]);
    expect(await lookAlikesByPath(app, "warehouse")).toEqual({ "handbook.md": undefined, "handbook-v2.md": undefined });

    const report = await runSync(app);
    expect(report.counts).toMatchObject({ signed: 3, ingested: 0, skipped: 3, moved: 0 });
    expect((await fullStatus(app)).unsignedSourceCount).toBeUndefined();
    const sorted = (rows: { source: string; minhash: string }[]) => [...rows].sort((a, b) => a.source.localeCompare(b.source));
    expect(sorted(await readSignatures(table))).toEqual(sorted(atIngest));
    expect(await lookAlikesByPath(app, "warehouse")).toEqual({ "handbook.md": ["handbook-v2.md"], "handbook-v2.md": ["handbook.md"] });
    expect((await runSync(app)).counts.signed).toBe(0);
  });
});
