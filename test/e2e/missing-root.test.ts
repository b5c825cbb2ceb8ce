/**
 * A root that is not there (an unplugged drive, a renamed or mistyped
 * folder) with the index in its default place inside the first root. Making
 * the index folder used to make the root too: sync exited 0 with `scanned 0`,
 * left `<root>/.minirag/` on the bare mount point, and status stopped
 * warning. Now every write refuses, names the root and the fix, and creates
 * nothing; the index comes back whole with the root.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { TINY_MODEL, tempDir } from "../helpers.ts";
import { killAll, mcpServer, run, writeVersion } from "./sync-procs.ts";

afterAll(killAll);

/** The binary's environment with DB_PATH unset: the index lives at <first root>/.minirag/lancedb. */
function defaultLayout(roots: string[]): Record<string, string> {
  // Not watching: a server's catch-up sync still committing when the test renames the root would race the rename,
  // which is not what these tests are about (a root gone between writes).
  return { BASE_DIRS: JSON.stringify(roots), MODEL_NAME: TINY_MODEL, HOME: process.env.HOME!, PATH: process.env.PATH ?? "", NO_COLOR: "1", RAG_WATCH: "false" };
}

function expectRefusal(stderr: string, root: string): void {
  expect(stderr).toContain(`The document root ${root} does not exist, and the index lives inside it (${join(root, ".minirag", "lancedb")})`);
  expect(stderr).toContain(`Mount or restore ${root}`);
  expect(stderr).toContain("set DB_PATH to a folder outside the roots");
}

describe("a missing root that holds the index", () => {
  test("sync, ingest-data and ingest-url refuse naming it, create nothing, status keeps warning, and the index returns whole with the root", async () => {
    const parent = tempDir("minirag-missing-root-");
    const root = join(parent, "drive");
    const away = join(parent, "drive-unplugged");
    mkdirSync(root);
    const names = ["alpha", "beta", "gamma"];
    writeVersion(root, names, 1);
    const env = defaultLayout([root]);
    expect((await run(["sync"], env)).exitCode).toBe(0);

    renameSync(root, away);
    const sync = await run(["sync", "--json"], env);
    expect(sync.exitCode).toBe(1);
    expectRefusal(sync.stderr, root);
    expect(existsSync(root)).toBe(false);

    const data = await run(["ingest-data", "--source", "note-1", join(away, "alpha.md")], env);
    expect(data.exitCode).toBe(1);
    expectRefusal(data.stderr, root);
    // Refused before any request: the address is never reached.
    const url = await run(["ingest-url", "http://127.0.0.1:9/page"], env);
    expect(url.exitCode).toBe(1);
    expectRefusal(url.stderr, root);
    expect(existsSync(root)).toBe(false);

    const status = await run(["status", "--json"], env);
    expect(JSON.parse(status.stdout).rootWarnings).toEqual([expect.stringContaining(`The document root ${root} does not exist`)]);

    renameSync(away, root);
    const back = await run(["sync", "--json"], env);
    expect(back.exitCode).toBe(0);
    expect(JSON.parse(back.stdout).counts).toMatchObject({ scanned: 3, skipped: 3, ingested: 0, deleted: 0 });
  });

  test("the MCP server refuses sync_start and ingest_data as tool errors, whether the root was missing at start or went away while it ran", async () => {
    const parent = tempDir("minirag-missing-root-mcp-");
    const root = join(parent, "drive");
    const away = join(parent, "drive-unplugged");
    mkdirSync(root);
    writeVersion(root, ["alpha"], 1);
    const env = defaultLayout([root]);

    // Started with the root present and one write done, so the server holds the table open when it goes.
    const { client, call } = await mcpServer(env);
    try {
      expect((await call("ingest_data", { source: "note-1", content: "The harbour crane lifts containers." })).isError).toBeFalsy();
      renameSync(root, away);
      const late = await call("ingest_data", { source: "note-2", content: "The night ferry leaves at ten." });
      expect(late.isError).toBe(true);
      expectRefusal(late.content[0]!.text, root);
      expect(existsSync(root)).toBe(false);
    } finally {
      await client.close();
    }

    const fresh = await mcpServer(env);
    try {
      const sync = await fresh.call("sync_start");
      expect(sync.isError).toBe(true);
      expectRefusal(sync.content[0]!.text, root);
      const data = await fresh.call("ingest_data", { source: "note-3", content: "Blue containers." });
      expect(data.isError).toBe(true);
      expectRefusal(data.content[0]!.text, root);
      expect(existsSync(root)).toBe(false);
    } finally {
      await fresh.client.close();
    }

    renameSync(away, root);
    const listed = await run(["list", "--json"], env);
    expect(JSON.parse(listed.stdout).files.map((f: { source: string }) => f.source).sort()).toEqual([join(root, "alpha.md"), "note-1"].sort());
  });

  test("with the first root missing, a sync over two roots refuses whole and creates nothing", async () => {
    const parent = tempDir("minirag-missing-first-");
    const first = join(parent, "first");
    const second = join(parent, "second");
    mkdirSync(second);
    writeVersion(second, ["delta"], 1);
    const sync = await run(["sync"], defaultLayout([first, second]));
    expect(sync.exitCode).toBe(1);
    expectRefusal(sync.stderr, first);
    expect(existsSync(first)).toBe(false);
  });

  test("a DB_PATH outside the roots is still created, and the missing root fails the sync alone", async () => {
    const parent = tempDir("minirag-missing-outside-");
    const root = join(parent, "drive");
    const home = join(parent, "home");
    mkdirSync(home);
    writeVersion(home, ["todo"], 1);
    const dbPath = join(parent, "index", "lancedb");
    const sync = await run(["sync", "--json"], { ...defaultLayout([root, home]), DB_PATH: dbPath });
    expect(sync.exitCode).toBe(1);
    expect(JSON.parse(sync.stdout).counts).toMatchObject({ ingested: 1, failed: 1 });
    expect(sync.stderr).toContain(`could not list ${root} (it does not exist)`);
    expect(existsSync(dbPath)).toBe(true);
    expect(existsSync(root)).toBe(false);
  });
});
