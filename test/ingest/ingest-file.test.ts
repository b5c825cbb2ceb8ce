/**
 * The one ingest of named paths (src/ingest/ingest-file.ts): the CLI's
 * `ingest FILE` and the MCP tool ingest_file reach it alike, and it finishes
 * its own write, so neither front end has anything left to do.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { ingestFile, ingestPaths } from "../../src/ingest/ingest-file.ts";
import type { ToolExtra } from "../../src/mcp/define-tool.ts";
import { ingestFileTool } from "../../src/mcp/tools/ingest-file.ts";
import { deleteSource } from "../../src/read/read-source.ts";
import { failure, runCli, TINY_MODEL, tempDir, testApp, writeTree } from "../helpers.ts";

const MANUAL = [
  "# Pump manual",
  "",
  "## Priming",
  "",
  "Open the bleed valve and fill the casing until water runs clear. Close the valve before starting the motor.",
  "",
  "## Maintenance",
  "",
  "Grease the bearings every 500 hours. Replace the mechanical seal when the drip rate exceeds ten drops a minute.",
].join("\n");

/** Every stored row of a source, less what each write makes its own: the time, and the write's token at the end of the id (store/table-writes.ts). */
async function storedRows(app: App, source: string) {
  return (await app.store.sourceChunks(source)).map(({ ingested_at: _written, id, ...row }) => ({ ...row, id: id.replace(/@[0-9a-f]+$/, "") }));
}

/** Records what the app is told about changes to its index. */
function changes(app: App): string[] {
  const heard: string[] = [];
  app.onIndexChanged((when) => heard.push(when));
  return heard;
}

describe("the CLI's ingest FILE and MCP's ingest_file", () => {
  test("store the same rows, with the same vectors, for the same file", async () => {
    const mcp = await testApp();
    const root = mcp.root;
    writeTree(root, { "manual.md": MANUAL });
    const path = join(root, "manual.md");
    await ingestFileTool.run({ filePath: path }, { app: mcp.app }, {} as ToolExtra);

    const cliDb = join(tempDir("minirag-db-"), "lancedb");
    const run = runCli(["ingest", path, "--json"], { env: { MODEL_NAME: TINY_MODEL, BASE_DIR: root, DB_PATH: cliDb } });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ingested: 1, failed: 0 });
    const cli = (await testApp({ DB_PATH: cliDb }, [root])).app;

    const rows = await storedRows(mcp.app, path);
    expect(rows.length).toBeGreaterThan(1);
    expect(await storedRows(cli, path)).toEqual(rows);
    // The vectors too: the nearest rows to one question, and how near, are the same in both indexes.
    const [question] = await (await mcp.app.embedder()).embed(["how often are the bearings greased"], "query");
    const nearest = async (app: App) => (await app.store.vectorSearch(question!, 10)).map((h) => [h.chunk_index, h._distance]);
    expect(await nearest(cli)).toEqual(await nearest(mcp.app));
  });
});

describe("an operation finishes its own write", () => {
  test("a file, a data item or a deletion says the index changed once it is stored; a failed ingest says nothing", async () => {
    const { app, root } = await testApp();
    const heard = changes(app);
    writeTree(root, { "a.md": MANUAL, "b.md": "# B\n\nThe relay listens on port 9000.", "broken.pdf": "not a pdf" });
    await ingestFile(app, join(root, "a.md"));
    expect(heard).toEqual(["soon"]);
    expect((await failure(ingestFile(app, join(root, "broken.pdf")))).code).toBe("CONVERSION_FAILED");
    expect(heard).toEqual(["soon"]);
    await ingestData(app, { source: "notes", content: "The okapi browses at dusk." });
    await deleteSource(app, join(root, "a.md"));
    expect(heard).toEqual(["soon", "soon", "soon"]);
  });

  test("a folder stands for the files under it, in one write said once; a file no converter reads is refused before any is stored", async () => {
    const { app, root } = await testApp();
    const heard = changes(app);
    writeTree(root, { "docs/a.md": MANUAL, "docs/b.md": "# B\n\nThe relay listens on port 9000.", "docs/c.txt": "Plain notes on the relay." });
    const report = await ingestPaths(app, [join(root, "docs")]);
    expect(report.results.map((r) => r.source).sort()).toEqual(["a.md", "b.md", "c.txt"].map((f) => join(root, "docs", f)));
    expect(heard).toEqual(["soon"]);
    writeTree(root, { "drawing.dwg": "binary" });
    const refused = await failure(ingestPaths(app, [join(root, "docs/a.md"), join(root, "drawing.dwg")]));
    expect(refused.code).toBe("UNSUPPORTED_FORMAT");
    expect(refused.hint).toContain(".md");
    expect(heard).toEqual(["soon"]);
  });
});
