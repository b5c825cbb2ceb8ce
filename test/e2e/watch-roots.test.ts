/**
 * Roots that go away while watched (an unplugged drive, an unmounted share, a
 * root deleted or replaced by a file) keep everything indexed under them; the
 * watch status says so, and watching resumes by itself when the root is back.
 * Which roots a server watches at all: only those the user named, or the
 * current directory when it already holds an index.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BINARY, TINY_MODEL, tempDir, waitFor, writeTree } from "../helpers.ts";
import { killAll, mcpServer, versionedDoc } from "./sync-procs.ts";
import { indexContents, waitForFreshIndex, watchEnv, watchOf } from "./watch-procs.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

afterAll(killAll);

describe("a root that goes away while watched", () => {
  test("keeps its index while gone, says so in status, and resumes by itself when it is back (changes made meanwhile included)", async () => {
    const parent = tempDir("minirag-watch-drive-");
    const root = join(parent, "drive");
    const aside = join(parent, "unplugged");
    const other = tempDir("minirag-watch-other-");
    writeTree(root, { "a.md": versionedDoc("a", 1), "sub/b.md": versionedDoc("b", 1) });
    writeTree(other, { "c.md": versionedDoc("c", 1) });
    const dbPath = join(tempDir("minirag-watch-drive-db-"), "lancedb");
    const server = await mcpServer(watchEnv([root, other], dbPath));
    try {
      const before = await waitForFreshIndex(dbPath, [root, other]);
      renameSync(root, aside);
      const gone = await waitFor(async () => (await watchOf(server)).roots.find((r: any) => r.root === root && r.mode === "unreachable"), 30_000, "the root reported unreachable");
      expect(gone.reason).toBe("it does not exist");
      expect((await watchOf(server)).fallback.join("\n")).toContain(`${root}: it does not exist; everything indexed under it is kept`);
      // The other root is still followed meanwhile, and nothing under the gone one is dropped.
      writeFileSync(join(other, "d.md"), versionedDoc("d", 1));
      await waitFor(async () => (await indexContents(dbPath)).has(join(other, "d.md")), 30_000, "d.md indexed");
      const during = await indexContents(dbPath);
      for (const source of before.keys()) expect(during.has(source)).toBe(true);
      // Edited while unplugged, then plugged back in.
      writeFileSync(join(aside, "a.md"), versionedDoc("a", 2));
      renameSync(aside, root);
      await waitFor(async () => (await watchOf(server)).roots.find((r: any) => r.root === root)?.mode === "events", 30_000, "the root watched again");
      await waitForFreshIndex(dbPath, [root, other]);
      writeFileSync(join(root, "sub/e.md"), versionedDoc("e", 1));
      await waitForFreshIndex(dbPath, [root, other]);
    } finally {
      await server.client.close();
    }
  });

  test("a root replaced by a file, then by an empty folder, keeps its index; its files back, nothing was lost", async () => {
    const parent = tempDir("minirag-watch-file-root-");
    const root = join(parent, "docs");
    writeTree(root, { "a.md": versionedDoc("a", 1), "b.md": versionedDoc("b", 1) });
    const dbPath = join(tempDir("minirag-watch-file-root-db-"), "lancedb");
    const server = await mcpServer(watchEnv([root], dbPath));
    try {
      const before = await waitForFreshIndex(dbPath, [root]);
      renameSync(root, join(parent, "docs-away"));
      writeFileSync(root, "not a folder");
      await waitFor(async () => (await watchOf(server)).roots[0].reason === "it is not a folder", 30_000, "the root reported as not a folder");
      // An empty folder where the root was (a drive's mount point with the drive gone): sync keeps the index.
      rmSync(root);
      mkdirSync(root);
      await waitFor(async () => (await watchOf(server)).lastSync?.trigger === "root back", 30_000, "a sync of the root that came back");
      expect([...(await indexContents(dbPath)).keys()].sort()).toEqual([...before.keys()].sort());
      const watch = await watchOf(server);
      expect(watch.lastSync.errors.map((e: any) => e.error).join("\n")).toContain("is an empty folder while its index is not");
      rmSync(root, { recursive: true });
      renameSync(join(parent, "docs-away"), root);
      await waitForFreshIndex(dbPath, [root]);
    } finally {
      await server.client.close();
    }
  });
});

describe("a root deleted and made again", () => {
  test("at once (rm -rf and a copy back, where the disk may give the folder the same inode number): it is watched again, and later edits follow", async () => {
    const parent = tempDir("minirag-watch-remade-");
    const root = join(parent, "docs");
    writeTree(root, { "d1.md": versionedDoc("d1", 1), "sub/s.md": versionedDoc("s", 1) });
    const dbPath = join(tempDir("minirag-watch-remade-db-"), "lancedb");
    const server = await mcpServer(watchEnv([root], dbPath));
    try {
      await waitForFreshIndex(dbPath, [root]);
      rmSync(root, { recursive: true });
      writeTree(root, { "d1.md": versionedDoc("d1", 1), "sub/s.md": versionedDoc("s", 1) });
      await waitFor(async () => (await watchOf(server)).lastSync?.trigger === "root back", 30_000, "a sync of the root made again");
      writeFileSync(join(root, "d1.md"), versionedDoc("d1", 2));
      writeFileSync(join(root, "new.md"), versionedDoc("new", 1));
      await waitForFreshIndex(dbPath, [root]);
    } finally {
      await server.client.close();
    }
  });

  test("empty, then filled with other files: the old files' entries go with the first change, as a fresh sync has it", async () => {
    const parent = tempDir("minirag-watch-refilled-");
    const root = join(parent, "docs");
    writeTree(root, { "o1.md": versionedDoc("o1", 1), "o2.md": versionedDoc("o2", 1) });
    const dbPath = join(tempDir("minirag-watch-refilled-db-"), "lancedb");
    const server = await mcpServer(watchEnv([root], dbPath));
    try {
      await waitForFreshIndex(dbPath, [root]);
      rmSync(root, { recursive: true });
      mkdirSync(root);
      // The empty folder keeps the index (it could be a mount point with its drive gone).
      await waitFor(async () => (await watchOf(server)).lastSync?.trigger === "root back", 30_000, "a sync of the root made again");
      expect((await indexContents(dbPath)).has(join(root, "o1.md"))).toBe(true);
      writeFileSync(join(root, "new.md"), versionedDoc("new", 1));
      await waitForFreshIndex(dbPath, [root]);
    } finally {
      await server.client.close();
    }
  });
});

describe("a folder that moved or was renamed, its index inside it", () => {
  test("status counts the files outside the roots until the catch-up follows them, moved and not embedded again", async () => {
    const parent = tempDir("minirag-watch-renamed-");
    const before = join(parent, "docs");
    const after = join(parent, "notes");
    writeTree(before, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`sub${i % 3}/doc-${i}.md`, versionedDoc(`doc-${i}`, 1)])));
    const env = (root: string, watch: string) => ({ ...watchEnv([root], join(root, ".minirag", "lancedb")), RAG_WATCH: watch });
    const first = Bun.spawnSync([BINARY, "sync"], { env: env(before, "false") });
    expect(first.exitCode).toBe(0);
    renameSync(before, after);
    const still = await mcpServer(env(after, "false"));
    try {
      const status = (await still.call("status")).structuredContent!;
      expect(status.outsideRootsCount).toBe(12);
      expect(status.outsideRootsNote).toContain("a folder moved or renamed since it was last synced");
    } finally {
      await still.client.close();
    }
    const server = await mcpServer(env(after, "true"));
    try {
      const watch = await waitFor(async () => {
        const w = await watchOf(server);
        return w.lastSync?.trigger === "start" ? w : null;
      }, 60_000, "the catch-up sync");
      expect(watch.lastSync.counts).toMatchObject({ moved: 12, ingested: 0, deleted: 0 });
      expect((await server.call("status")).structuredContent!.outsideRootsCount).toBeUndefined();
    } finally {
      await server.client.close();
    }
  });

  test("a watching server's catch-up keeps what another root indexed while that root is left out, as long as its files are on disk", async () => {
    const a = tempDir("minirag-watch-keep-a-");
    const b = tempDir("minirag-watch-keep-b-");
    writeTree(a, { "a.md": versionedDoc("a", 1) });
    writeTree(b, { "b.md": versionedDoc("b", 1), "gone.md": versionedDoc("gone", 1) });
    const dbPath = join(tempDir("minirag-watch-keep-db-"), "lancedb");
    expect(Bun.spawnSync([BINARY, "sync"], { env: { ...watchEnv([a, b], dbPath), RAG_WATCH: "false" } }).exitCode).toBe(0);
    rmSync(join(b, "gone.md"));
    const server = await mcpServer(watchEnv([a], dbPath));
    try {
      await waitFor(async () => (await watchOf(server)).lastSync?.trigger === "start", 60_000, "the catch-up sync");
      expect([...(await indexContents(dbPath)).keys()].sort()).toEqual([join(a, "a.md"), join(b, "b.md")]);
    } finally {
      await server.client.close();
    }
  });
});

/** A server started in `cwd` with env, through the SDK client; returns its watch status once answered. */
async function watchStatusIn(cwd: string, env: Record<string, string>): Promise<Record<string, any>> {
  const client = new Client({ name: "watch-roots", version: "0" });
  await client.connect(new StdioClientTransport({ command: BINARY, args: [], cwd, env, stderr: "pipe" }));
  try {
    await client.listTools();
    const result = (await client.callTool({ name: "status", arguments: {} })) as { structuredContent: Record<string, any> };
    return result.structuredContent.watch;
  } finally {
    await client.close();
  }
}

describe("which roots a server watches by itself", () => {
  const base = { MODEL_NAME: TINY_MODEL, PATH: process.env.PATH ?? "", RAG_WATCH: "true" };

  test("the current directory of a client that named no folder is neither synced nor watched, and status says why", async () => {
    const cwd = tempDir("minirag-watch-cwd-");
    writeTree(cwd, { "a.md": "# A\n\nalpha" });
    const watch = await watchStatusIn(cwd, { ...base, HOME: process.env.HOME! });
    expect(watch.enabled).toBe(false);
    expect(watch.skippedRoots[0].reason).toContain("only the current directory of a client that named no folder");
    expect(existsSync(join(cwd, ".minirag"))).toBe(false);
  });

  test("started in a whole home folder (as in /), an agent told the index is empty learns to set BASE_DIR, and the tools that write make no index", async () => {
    // Claude Desktop starts servers in /; a home folder is the same case, and a test may make one.
    const cwd = tempDir("minirag-unchosen-home-");
    writeTree(cwd, { "a.md": "# A\n\nalpha" });
    const client = new Client({ name: "unchosen-root", version: "0" });
    await client.connect(new StdioClientTransport({ command: BINARY, args: [], cwd, env: { ...base, HOME: cwd }, stderr: "pipe" }));
    try {
      const query = (await client.callTool({ name: "query_documents", arguments: { query: "alpha" } })) as unknown as { structuredContent: { notice: string } };
      expect(query.structuredContent.notice).toContain(`this server's root is ${cwd}, a whole home folder`);
      for (const [name, args] of [["sync_start", {}], ["ingest_data", { content: "x", source: "note" }], ["ingest_file", { filePath: join(cwd, "a.md") }]] as const) {
        const refused = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
        expect({ name, isError: refused.isError, text: refused.content[0]!.text }).toEqual({ name, isError: true, text: expect.stringContaining("No folder of documents is configured") });
      }
      expect(existsSync(join(cwd, ".minirag"))).toBe(false);
      const watch = ((await client.callTool({ name: "status", arguments: {} })) as unknown as { structuredContent: { watch: { note: string } } }).structuredContent.watch;
      expect(watch.note).toContain("Set BASE_DIR (or BASE_DIRS)");
    } finally {
      await client.close();
    }
  });

  test("started in a project folder it names no folder for, sync_start indexes that folder (Claude Code)", async () => {
    const cwd = tempDir("minirag-project-cwd-");
    writeTree(cwd, { "a.md": "# A\n\nalpha" });
    const client = new Client({ name: "project-root", version: "0" });
    await client.connect(new StdioClientTransport({ command: BINARY, args: [], cwd, env: { ...base, HOME: process.env.HOME! }, stderr: "pipe" }));
    try {
      const started = (await client.callTool({ name: "sync_start", arguments: {} })) as unknown as { isError?: boolean; structuredContent: { jobId: string } };
      expect(started.isError).toBeFalsy();
      await waitFor(async () => ((await client.callTool({ name: "sync_status", arguments: { jobId: started.structuredContent.jobId } })) as unknown as { structuredContent: { state: string } }).structuredContent.state === "succeeded", 60_000, "the sync to succeed");
      expect(existsSync(join(cwd, ".minirag", "lancedb"))).toBe(true);
    } finally {
      await client.close();
    }
  });

  test("the current directory that already holds an index is watched", async () => {
    const cwd = tempDir("minirag-watch-cwd-index-");
    writeTree(cwd, { "a.md": "# A\n\nalpha" });
    const env = { ...base, HOME: process.env.HOME! };
    const sync = Bun.spawnSync([BINARY, "sync"], { cwd, env });
    expect(sync.exitCode).toBe(0);
    const watch = await watchStatusIn(cwd, env);
    expect(watch.enabled).toBe(true);
    expect(watch.skippedRoots).toBeUndefined();
  });

  test("a whole home folder named by BASE_DIR is left alone, with the reason", async () => {
    const home = tempDir("minirag-watch-home-");
    const watch = await watchStatusIn(dirname(home), { ...base, HOME: home, BASE_DIR: home });
    expect(watch.enabled).toBe(false);
    expect(watch.skippedRoots).toEqual([{ root: home, reason: expect.stringContaining("is a whole home folder") }]);
  });

  test("RAG_WATCH=false and serve --no-watch turn it off", async () => {
    const root = tempDir("minirag-watch-off-");
    const env = { ...base, HOME: process.env.HOME!, BASE_DIR: root };
    expect((await watchStatusIn(root, { ...env, RAG_WATCH: "false" })).enabled).toBe(false);
    const client = new Client({ name: "watch-off", version: "0" });
    await client.connect(new StdioClientTransport({ command: BINARY, args: ["serve", "--no-watch"], env, stderr: "pipe" }));
    try {
      const result = (await client.callTool({ name: "status", arguments: {} })) as { structuredContent: Record<string, any> };
      expect(result.structuredContent.watch).toMatchObject({ enabled: false, note: expect.stringContaining("Watching is off") });
    } finally {
      await client.close();
    }
  });
});
