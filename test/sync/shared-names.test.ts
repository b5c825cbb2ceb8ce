/**
 * Root-relative sources (scan/source-names.ts) end to end over a real index:
 * what a shared index on object storage does, here over a local folder so it
 * runs without a store (scripts/accept/team-index.test.ts runs it on S3).
 */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createApp, type App } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { rootNames } from "../../src/config/root-names.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { listFiles } from "../../src/read/list-files.ts";
import { deleteSource, readNeighbors, readSource } from "../../src/read/read-source.ts";
import { fileSourceToRead } from "../../src/read/file-source.ts";
import { findMentions } from "../../src/search/find-mentions.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, recordEmbeds, tempDir, TINY_MODEL, writeTree } from "../helpers.ts";

/** An app over `dbPath` with `roots`; shared: files named as on a team index. */
function machine(roots: string[], dbPath: string, shared = true): App {
  const config = loadConfig({ env: { MODEL_NAME: TINY_MODEL, BASE_DIRS: JSON.stringify(roots), DB_PATH: dbPath, RAG_TESSDATA_URL: "http://127.0.0.1:9" } });
  return createApp(shared ? { ...config, rootNames: rootNames(roots, undefined) } : config, { log: () => {} });
}

const FILES = {
  "policies/leave.md": "# Leave\n\nAnnual leave is twenty-five days; carry-over needs a manager's approval.",
  "policies/travel.md": "# Travel\n\nTrain travel is preferred under four hours; flights need approval.",
  "minutes/2024-01.md": "# January minutes\n\nThe board approved the harbour crane budget.",
};

function library(): { root: string; dbPath: string } {
  const root = join(tempDir("minirag-shared-"), "handbook");
  writeTree(root, FILES);
  return { root, dbPath: join(tempDir("minirag-shared-db-"), "lancedb") };
}

describe("a shared index names files by root name and path inside it", () => {
  test("a writer's sync stores `handbook/…`; a reader without the folder lists, reads, searches and scopes them exactly as the writer does", async () => {
    const { root, dbPath } = library();
    const writer = machine([root], dbPath);
    expect((await runSync(writer)).counts).toMatchObject({ scanned: 3, ingested: 3 });
    const reader = machine([join(tempDir("minirag-desk-"), "desk")], dbPath);
    mkdirSync(reader.config.roots[0]!, { recursive: true });

    const listed = await listFiles(writer);
    expect(listed.files.map((f) => [f.source, f.displayPath, f.state])).toEqual([
      ["handbook/minutes/2024-01.md", "handbook/minutes/2024-01.md", "ingested"],
      ["handbook/policies/leave.md", "handbook/policies/leave.md", "ingested"],
      ["handbook/policies/travel.md", "handbook/policies/travel.md", "ingested"],
    ]);
    expect(await listFiles(reader)).toEqual(listed);
    expect(await listFiles(reader, ["handbook/policies"])).toEqual(await listFiles(writer, [join(root, "policies")]));
    expect((await listFiles(reader, ["handbook/policies"])).files).toHaveLength(2);
    expect(await listFiles(writer, ["handbook/policies"])).toEqual(await listFiles(reader, ["handbook/policies"]));

    const read = await readSource(reader, "handbook/policies/leave.md");
    expect(read.text).toContain("twenty-five days");
    expect(await readSource(writer, writer.names.sourceOf(join(root, "policies/leave.md")))).toEqual(read);
    expect(await readNeighbors(reader, "handbook/policies/leave.md", 0)).toEqual(await readNeighbors(writer, "handbook/policies/leave.md", 0));

    const asked = { query: "approval", topK: 10 };
    const answer = await queryDocuments(reader, { ...asked, scope: ["handbook/policies"] });
    expect(answer.results.map((r) => r.source).sort()).toEqual(["handbook/policies/leave.md", "handbook/policies/travel.md"]);
    expect(await queryDocuments(writer, { ...asked, scope: [join(root, "policies")] })).toEqual(answer);
    const found = await findMentions(reader, { terms: ["approval"] });
    expect(found.documents.map((d) => [d.source, d.displayPath])).toEqual([
      ["handbook/policies/leave.md", "handbook/policies/leave.md"],
      ["handbook/policies/travel.md", "handbook/policies/travel.md"],
    ]);
    expect(await findMentions(writer, { terms: ["approval"] })).toEqual(found);
  });

  test("a second machine with its own copy of the folder at another path syncs it as unchanged: nothing is read again or removed", async () => {
    const { root, dbPath } = library();
    expect((await runSync(machine([root], dbPath))).counts.ingested).toBe(3);
    const copy = join(tempDir("minirag-copy-"), "handbook");
    cpSync(root, copy, { recursive: true, preserveTimestamps: true });
    const other = machine([copy], dbPath);
    const { calls } = await recordEmbeds(other);
    const report = await runSync(other);
    expect(report.counts).toMatchObject({ scanned: 3, ingested: 0, deleted: 0, moved: 0, skipped: 3 });
    expect(calls).toEqual([]);
  });

  test("an index whose files were named by absolute path is renamed on the writer's next sync, without reading or embedding anything", async () => {
    const { root, dbPath } = library();
    expect((await runSync(machine([root], dbPath, false))).counts.ingested).toBe(3);
    const writer = machine([root], dbPath);
    const { calls } = await recordEmbeds(writer);
    expect((await runSync(writer)).counts).toMatchObject({ moved: 3, ingested: 0, deleted: 0, skipped: 3 });
    expect(calls).toEqual([]);
    expect((await listFiles(writer)).files.map((f) => f.source)).toEqual(["handbook/minutes/2024-01.md", "handbook/policies/leave.md", "handbook/policies/travel.md"]);
    expect((await runSync(writer)).counts).toMatchObject({ moved: 0, ingested: 0, skipped: 3 });
  });

  test("moves, edits, deletes and single-file ingests on the writer keep the shared names", async () => {
    const { root, dbPath } = library();
    const writer = machine([root], dbPath);
    await runSync(writer);
    mkdirSync(join(root, "archive"));
    renameSync(join(root, "minutes/2024-01.md"), join(root, "archive/2024-01.md"));
    expect((await runSync(writer)).counts).toMatchObject({ moved: 1, ingested: 0, deleted: 0 });
    writeTree(root, { "new.md": "# New\n\nA new note about the harbour." });
    expect((await ingestFile(writer, join(root, "new.md"))).source).toBe("handbook/new.md");
    expect((await deleteSource(writer, writer.names.sourceOf(join(root, "policies/travel.md")))).source).toBe("handbook/policies/travel.md");
    expect((await listFiles(writer)).files.map((f) => [f.source, f.state])).toEqual([
      ["handbook/archive/2024-01.md", "ingested"],
      ["handbook/new.md", "ingested"],
      ["handbook/policies/leave.md", "ingested"],
      ["handbook/policies/travel.md", "not_ingested"],
    ]);
  });

  test("a reader keeping a folder of the same name, empty, missing or with a file of its own, lists the writer's files from the index (found by a probe)", async () => {
    const { root, dbPath } = library();
    const writer = machine([root], dbPath);
    await runSync(writer);
    const written = (await listFiles(writer)).files.map((f) => [f.source, f.state]);
    const own = join(tempDir("minirag-desk-"), "handbook");
    writeTree(own, { "notes.md": "# Notes\n\nMy own notes." });
    const empty = join(tempDir("minirag-desk-"), "handbook");
    mkdirSync(empty, { recursive: true });
    const missing = join(tempDir("minirag-desk-"), "handbook");
    const withOwn = (await listFiles(machine([own], dbPath))).files.map((f) => [f.source, f.state]);
    expect(withOwn.sort((a, b) => a[0]!.localeCompare(b[0]!))).toEqual([...written, ["handbook/notes.md", "not_ingested"]].sort((a, b) => a[0]!.localeCompare(b[0]!)));
    expect((await listFiles(machine([empty], dbPath))).files.map((f) => [f.source, f.state])).toEqual(written);
    const withoutFolder = await listFiles(machine([missing], dbPath));
    expect(withoutFolder.files.map((f) => [f.source, f.state])).toEqual(written);
    expect(withoutFolder.unlistedFolders?.[0]?.reason).toContain("does not exist");
    // What a sync on each would do to the writer's files: the one with a file of its own would remove them; an empty or
    // missing folder looks unplugged, and a sync keeps what is under it.
    const missingHere = async (m: App) => (await listFiles(m)).files.filter((f) => f.missingHere).map((f) => f.source);
    expect((await missingHere(machine([own], dbPath))).sort()).toEqual(written.map(([source]) => source!).sort());
    expect(await missingHere(machine([empty], dbPath))).toEqual([]);
    expect(await missingHere(machine([missing], dbPath))).toEqual([]);
    expect(await missingHere(machine([join(tempDir("minirag-desk-"), "desk")], dbPath))).toEqual([]);
  });

  test("the writer's listing marks a file it deleted before its next sync as missing here, which that sync then removes (found by a probe)", async () => {
    const { root, dbPath } = library();
    const writer = machine([root], dbPath);
    await runSync(writer);
    rmSync(join(root, "policies/travel.md"));
    const travel = (await listFiles(writer)).files.find((f) => f.source === "handbook/policies/travel.md");
    expect(travel).toMatchObject({ state: "ingested", missingHere: true });
    expect((await listFiles(writer)).files.filter((f) => f.missingHere)).toHaveLength(1);
    // A file a new rule leaves out is on this disk: not marked missing (a reviewer's find).
    writeTree(root, { ".miniragignore": "minutes/\n" });
    expect((await listFiles(writer)).files.filter((f) => f.missingHere).map((f) => f.source)).toEqual(["handbook/policies/travel.md"]);
    // The sync removes both: the deleted file and the one the rule leaves out.
    expect((await runSync(writer)).counts).toMatchObject({ deleted: 2 });
    expect((await listFiles(writer)).files.map((f) => f.source)).not.toContain("handbook/policies/travel.md");
  });

  test("a reader's absolute path under its own root of that name reads the file from the index, on disk or not (found by a probe)", async () => {
    const { root, dbPath } = library();
    const writer = machine([root], dbPath);
    await runSync(writer);
    const desk = join(tempDir("minirag-desk-"), "handbook");
    mkdirSync(desk, { recursive: true });
    const reader = machine([desk], dbPath);
    const path = join(desk, "policies/leave.md");
    expect(await fileSourceToRead(reader, path, { requireAbsolute: false })).toBe("handbook/policies/leave.md");
    expect((await readSource(reader, await fileSourceToRead(reader, path, { requireAbsolute: false }))).text).toContain("twenty-five days");
    // Outside every root, a missing file is still refused as missing.
    expect((await failure(fileSourceToRead(reader, join(tempDir("minirag-elsewhere-"), "x.md"), { requireAbsolute: false }))).message).not.toContain("handbook/");
  });

  test("a writer's whole sync leaves alone the files other machines ingested under roots of their own; their own sync still removes what they deleted (found by a probe)", async () => {
    const { root, dbPath } = library();
    const writer = machine([root], dbPath);
    await runSync(writer);
    const notes = join(tempDir("minirag-notes-"), "notes");
    writeTree(notes, { "a.md": "# A\n\nA note from another machine.", "b.md": "# B\n\nAnother note." });
    const other = machine([notes], dbPath);
    expect((await ingestFile(other, join(notes, "a.md"))).source).toBe("notes/a.md");
    expect((await ingestFile(other, join(notes, "b.md"))).source).toBe("notes/b.md");
    expect((await runSync(writer)).counts).toMatchObject({ deleted: 0, skipped: 3 });
    expect((await readSource(writer, "notes/a.md")).text).toContain("another machine");
    rmSync(join(notes, "b.md"));
    expect((await runSync(other)).counts).toMatchObject({ deleted: 1 });
    expect((await listFiles(writer)).files.map((f) => f.source)).toContain("handbook/policies/leave.md");
    expect(await failure(readSource(writer, "notes/b.md"))).toBeInstanceOf(Error);
  });

  test("a data id that would name a file under a root of the shared index is refused", async () => {
    const { root, dbPath } = library();
    const writer = machine([root], dbPath);
    const error = await failure(ingestData(writer, { source: "handbook/policies/leave.md", content: "injected" }));
    expect(error.message).toContain("is the name of a file under a document root in this shared index");
    expect((await ingestData(writer, { source: "meeting-notes", content: "Notes." })).source).toBe("meeting-notes");
  });
});
