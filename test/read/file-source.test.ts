/**
 * Reading by a file path (src/read/file-source.ts). On a team index a reader
 * names a file as query showed it (`handbook/policies/leave.md`), though no
 * such file is under its roots: it was refused as outside the roots.
 */
import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { rootNames } from "../../src/config/root-names.ts";
import { fileSourceToRead } from "../../src/read/file-source.ts";
import { readNeighbors, readSource } from "../../src/read/read-source.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, tempDir, TINY_MODEL, writeTree } from "../helpers.ts";

function machine(root: string, dbPath: string, shared: boolean) {
  const config = loadConfig({ env: { MODEL_NAME: TINY_MODEL, BASE_DIRS: JSON.stringify([root]), DB_PATH: dbPath, RAG_TESSDATA_URL: "http://127.0.0.1:9" } });
  return createApp(shared ? { ...config, rootNames: rootNames([root], undefined) } : config, { log: () => {} });
}

const LEAVE = "# Leave\n\nAnnual leave is twenty-five days.\n";

describe("a file named by path for a read", () => {
  test("on a team index, a reader without the folder reads it by the shared name query shows (CLI and MCP alike)", async () => {
    const root = join(tempDir("minirag-file-source-"), "handbook");
    writeTree(root, { "policies/leave.md": LEAVE });
    const dbPath = join(tempDir("minirag-file-source-db-"), "lancedb");
    expect((await runSync(machine(root, dbPath, true))).counts).toMatchObject({ ingested: 1 });
    const desk = join(tempDir("minirag-file-source-desk-"), "desk");
    writeTree(desk, { "own.md": "# Own\n" });
    const reader = machine(desk, dbPath, true);
    for (const requireAbsolute of [false, true]) {
      const source = await fileSourceToRead(reader, "handbook/policies/leave.md", { requireAbsolute, cwd: desk });
      expect(source).toBe("handbook/policies/leave.md");
      expect((await readSource(reader, source)).text).toBe(LEAVE);
      expect((await readNeighbors(reader, source, 0, 0, 0)).chunks).toHaveLength(1);
    }
    expect(await fileSourceToRead(reader, "./handbook//policies/leave.md", { requireAbsolute: false, cwd: desk })).toBe("handbook/policies/leave.md");
    // A file that is here but outside the roots keeps its own error, rather than being read as a name.
    writeTree(join(desk, ".."), { "handbook/policies/leave.md": "a local copy outside the roots" });
    expect(await failure(() => fileSourceToRead(reader, "../handbook/policies/leave.md", { requireAbsolute: false, cwd: desk }))).toMatchObject({ code: "PATH_OUTSIDE_ROOTS" });
    // The writer's own path resolves to the same name.
    expect(await fileSourceToRead(machine(root, dbPath, true), join(root, "policies/leave.md"), { requireAbsolute: true })).toBe("handbook/policies/leave.md");
  });

  test("on a local index a path that is no file under the roots is refused as before", async () => {
    const root = tempDir("minirag-file-source-local-");
    writeTree(root, { "a.md": LEAVE });
    const app = machine(root, join(tempDir("minirag-file-source-local-db-"), "lancedb"), false);
    expect(await failure(() => fileSourceToRead(app, "handbook/policies/leave.md", { requireAbsolute: true }))).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(await failure(() => fileSourceToRead(app, "/etc/passwd", { requireAbsolute: true }))).toMatchObject({ code: "PATH_OUTSIDE_ROOTS" });
    expect(await fileSourceToRead(app, "a.md", { requireAbsolute: false, cwd: root })).toBe(join(root, "a.md"));
  });

  test("a link inside the roots to an indexed file reads as that file, as sync and ingest index it; a link to a file no walk lists by its own path is its own source", async () => {
    const root = tempDir("minirag-file-source-link-");
    // archive/notes.old has an extension no walk lists, so the link is the only way the sync reaches it.
    writeTree(root, { "café.md": LEAVE, "archive/notes.old": "# Kept\n\nOnly through its link." });
    symlinkSync(join(root, "café.md"), join(root, "inside-link.md"));
    symlinkSync(join(root, "archive/notes.old"), join(root, "kept-link.md"));
    const app = machine(root, join(tempDir("minirag-file-source-link-db-"), "lancedb"), false);
    await runSync(app);
    for (const [link, target] of [["inside-link.md", "café.md"], ["kept-link.md", "kept-link.md"]]) {
      expect(await fileSourceToRead(app, link!, { requireAbsolute: false, cwd: root })).toBe(join(root, target!));
      expect(await fileSourceToRead(app, join(root, link!), { requireAbsolute: true })).toBe(join(root, target!));
    }
    expect((await readSource(app, await fileSourceToRead(app, "inside-link.md", { requireAbsolute: false, cwd: root }))).text).toBe(LEAVE);
  });
});
