/**
 * Files that fail to convert are remembered in the index (store/failed-files.ts)
 * and a sync does not try them again until the file, the program or a
 * conversion setting changes (ingest/failure-memory.ts). Here from source,
 * with real LanceDB and converters; test/e2e/failed-files.test.ts drives the
 * compiled binary.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { AppError } from "../../src/errors.ts";
import { isFileFault } from "../../src/ingest/failure-memory.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { listFiles } from "../../src/read/list-files.ts";
import { readNeighbors, readSource } from "../../src/read/read-source.ts";
import { fullStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, TINY_MODEL, tempDir, testApp, writeTree } from "../helpers.ts";

/** A notebook that is not JSON: its converter refuses it at once, every time. */
const BROKEN = "this is not a notebook";
const NOTEBOOK = JSON.stringify({ cells: [{ cell_type: "markdown", source: ["# Pumps\n", "The pump moves coolant."] }], metadata: {}, nbformat: 4, nbformat_minor: 5 });

async function listed(app: Awaited<ReturnType<typeof testApp>>["app"]) {
  return Object.fromEntries((await listFiles(app)).files.map((f) => [f.displayPath, { state: f.state, error: f.error }]));
}

describe("a file that fails to convert", () => {
  test("is remembered: the next sync names it under failedBefore without trying it, list shows it failed with the reason, status counts it", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "broken.ipynb": BROKEN, "fine.md": "# Fine\n\nFine text." });
    const first = await runSync(app);
    expect(first.counts).toMatchObject({ ingested: 1, failed: 1, failedBefore: 0 });
    expect(first.errors[0]!.source).toBe(join(root, "broken.ipynb"));

    const second = await runSync(app);
    expect(second.counts).toMatchObject({ ingested: 0, skipped: 1, failed: 0, failedBefore: 1 });
    // Not tried: a try would have failed again and been reported among the errors.
    expect(second.errors).toEqual([]);
    expect(second.failedBefore).toEqual([{ source: join(root, "broken.ipynb"), error: first.errors[0]!.error, failedAt: expect.any(String) }]);

    const files = await listed(app);
    expect(files["broken.ipynb"]).toEqual({ state: "failed", error: first.errors[0]!.error });
    expect(files["fine.md"]).toEqual({ state: "ingested", error: undefined });
    const status = await fullStatus(app);
    expect(status.failedFileCount).toBe(1);
    expect(status.failedFileNote).toStartWith("1 file failed to convert and is not tried again");
    // Reading it names its failure, not "ingest it first / run sync", which would not try it again.
    for (const read of [() => readSource(app, join(root, "broken.ipynb")), () => readNeighbors(app, join(root, "broken.ipynb"), 0)]) {
      const refused = await failure(read);
      expect(refused.message).toBe(`${join(root, "broken.ipynb")} is not in the index: it failed to convert (${first.errors[0]!.error.split("\n")[0]}).`);
      expect(refused.hint).toContain("Sync does not try it again until the file changes");
    }
  });

  test("is tried again once it changes, and forgotten once it converts", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "notes.ipynb": BROKEN });
    await runSync(app);
    writeFileSync(join(root, "notes.ipynb"), NOTEBOOK);
    const fixed = await runSync(app);
    expect(fixed.counts).toMatchObject({ ingested: 1, failed: 0, failedBefore: 0 });
    expect((await listed(app))["notes.ipynb"]!.state).toBe("ingested");
    expect((await fullStatus(app)).failedFileCount).toBeUndefined();
  });

  test("is tried again when only its modification time changes", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "notes.ipynb": BROKEN });
    await runSync(app);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "notes.ipynb"), later, later);
    expect((await runSync(app)).counts).toMatchObject({ failed: 1, failedBefore: 0 });
    expect((await runSync(app)).counts).toMatchObject({ failed: 0, failedBefore: 1 });
  });

  test("is tried again when a conversion setting changes (RAG_CONVERT_TIMEOUT), since the outcome may differ", async () => {
    const root = tempDir("minirag-root-");
    const dbPath = join(tempDir("minirag-db-"), "lancedb");
    writeTree(root, { "notes.ipynb": BROKEN });
    const before = await testApp({ DB_PATH: dbPath }, [root]);
    await runSync(before.app);
    expect((await runSync(before.app)).counts.failedBefore).toBe(1);
    const after = await testApp({ DB_PATH: dbPath, RAG_CONVERT_TIMEOUT: "300" }, [root]);
    expect((await runSync(after.app)).counts).toMatchObject({ failed: 1, failedBefore: 0 });
    expect((await runSync(after.app)).counts).toMatchObject({ failed: 0, failedBefore: 1 });
  });

  test("past MAX_FILE_SIZE is remembered the same way, with the fix, and tried again once the limit is raised", async () => {
    const root = tempDir("minirag-root-");
    const dbPath = join(tempDir("minirag-db-"), "lancedb");
    writeTree(root, { "big.txt": "word ".repeat(400), "fine.md": "# Fine\n\nFine text." });
    const { app } = await testApp({ DB_PATH: dbPath, MAX_FILE_SIZE: "1000" }, [root]);
    const first = await runSync(app);
    expect(first.counts).toMatchObject({ ingested: 1, failed: 1, failedBefore: 0 });
    expect(first.errors).toEqual([
      { source: join(root, "big.txt"), error: `${join(root, "big.txt")} exceeds MAX_FILE_SIZE (1000): it is 2000 bytes\nRaise the limit, e.g. export MAX_FILE_SIZE=209715200 (200 MB), or move the file out of the roots.` },
    ]);
    const second = await runSync(app);
    expect(second.counts).toMatchObject({ failed: 0, failedBefore: 1 });
    expect((await listed(app))["big.txt"]).toEqual({ state: "failed", error: first.errors[0]!.error });
    const raised = await testApp({ DB_PATH: dbPath, MAX_FILE_SIZE: "3000" }, [root]);
    expect((await runSync(raised.app)).counts).toMatchObject({ ingested: 1, failed: 0, failedBefore: 0 });
    expect((await listed(raised.app))["big.txt"]).toEqual({ state: "ingested", error: undefined });
    // Indexed, then past a lowered limit: its chunks stay and the failure is remembered; the limit raised again, the
    // unchanged file is skipped and its failure forgotten (status counted it while list showed it ingested).
    const lowered = await testApp({ DB_PATH: dbPath, MAX_FILE_SIZE: "1000" }, [root]);
    expect((await runSync(lowered.app)).counts).toMatchObject({ failed: 1, deleted: 0 });
    expect((await fullStatus(lowered.app)).failedFileCount).toBe(1);
    const again = await testApp({ DB_PATH: dbPath, MAX_FILE_SIZE: "3000" }, [root]);
    expect((await runSync(again.app)).counts).toMatchObject({ skipped: 2, failed: 0, failedBefore: 0 });
    expect((await fullStatus(again.app)).failedFileCount ?? 0).toBe(0);
    expect((await listed(again.app))["big.txt"]).toEqual({ state: "ingested", error: undefined });
  });

  test("ingested by hand is tried again (an explicit request), and its success forgets the failure", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "notes.ipynb": BROKEN });
    await runSync(app);
    const path = join(root, "notes.ipynb");
    // The converter's own error: the file was read and converted again, not refused as remembered.
    expect((await failure(ingestFile(app, path))).code).toBe("CONVERSION_FAILED");
    expect((await runSync(app)).counts.failedBefore).toBe(1);
    writeFileSync(path, NOTEBOOK);
    expect((await ingestFile(app, path)).chunkCount).toBeGreaterThan(0);
    expect((await fullStatus(app)).failedFileCount).toBeUndefined();
  });

  test("that is deleted is forgotten by the next sync; a sync scoped elsewhere keeps it", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a/broken.ipynb": BROKEN, "b/other.md": "# Other\n\ntext" });
    await runSync(app);
    rmSync(join(root, "a/broken.ipynb"));
    await runSync(app, { scope: join(root, "b") });
    expect((await fullStatus(app)).failedFileCount).toBe(1);
    await runSync(app);
    expect((await fullStatus(app)).failedFileCount).toBeUndefined();
  });

  test("whose older version is indexed keeps those chunks, shows as failed, and is not tried again", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "notes.ipynb": NOTEBOOK });
    await runSync(app);
    writeFileSync(join(root, "notes.ipynb"), BROKEN);
    expect((await runSync(app)).counts).toMatchObject({ failed: 1 });
    expect((await runSync(app)).counts).toMatchObject({ failed: 0, failedBefore: 1 });
    expect((await listed(app))["notes.ipynb"]!.state).toBe("failed");
    expect((await app.store.listSources()).map((s) => s.source)).toEqual([join(root, "notes.ipynb")]);
  });

  test("on a shared index is remembered under its shared name: another machine, whose copy of the root lies elsewhere, does not try it again", async () => {
    const dbPath = join(tempDir("minirag-db-"), "lancedb");
    const machine = (root: string) => {
      const config = loadConfig({ env: { MODEL_NAME: TINY_MODEL, BASE_DIR: root, DB_PATH: dbPath } });
      // As on object storage (config/root-names.ts), here over a local index so the test needs no S3 server.
      return createApp({ ...config, rootNames: ["handbook"] }, { log: () => {} });
    };
    const rootA = join(tempDir("minirag-a-"), "docs");
    writeTree(rootA, { "broken.ipynb": BROKEN, "fine.md": "# Fine\n\nFine text." });
    // Whole seconds: a copy keeps them exactly (copies round finer times).
    const then = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(join(rootA, "broken.ipynb"), then, then);
    const first = await runSync(machine(rootA));
    expect(first.counts).toMatchObject({ ingested: 1, failed: 1 });
    expect([...(await machine(rootA).store.failures.all()).keys()]).toEqual(["handbook/broken.ipynb"]);

    // The same files, with the same times, under another path on another machine.
    const rootB = join(tempDir("minirag-b-"), "team-docs");
    cpSync(rootA, rootB, { recursive: true, preserveTimestamps: true });
    const b = machine(rootB);
    const second = await runSync(b);
    expect(second.counts).toMatchObject({ ingested: 0, failed: 0, failedBefore: 1 });
    expect(second.failedBefore).toEqual([{ source: join(rootB, "broken.ipynb"), error: first.errors[0]!.error, failedAt: expect.any(String) }]);
    expect((await listed(b))["handbook/broken.ipynb"]).toEqual({ state: "failed", error: first.errors[0]!.error });

    // Fixed on B: converted, and forgotten under the shared name.
    writeFileSync(join(rootB, "broken.ipynb"), NOTEBOOK);
    expect((await runSync(b)).counts).toMatchObject({ ingested: 1, failed: 0, failedBefore: 0 });
    expect((await b.store.failures.all()).size).toBe(0);
  });
});

describe("which failures are remembered", () => {
  test.each([
    ["a converter's refusal is remembered", new AppError("CONVERSION_FAILED", "m", "h"), true],
    ["a conversion past the time limit is remembered", new AppError("CONVERSION_TIMEOUT", "m", "h"), true],
    ["a zip bomb is remembered", new AppError("FILE_TOO_LARGE", "m", "h"), true],
    ["OCR language data that could not be downloaded is tried again", new AppError("OCR_LANGUAGE_DATA", "m", "h"), false],
    ["a model that failed on a batch is tried again", new AppError("MODEL_RUN", "m", "h"), false],
    ["an index write that failed is tried again", new AppError("INDEX", "m", "h"), false],
    ["an unexpected error is tried again", new Error("boom"), false],
  ])("%s", (_, error, remembered) => {
    expect(isFileFault(error)).toBe(remembered);
  });
});
