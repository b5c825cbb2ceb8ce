/**
 * What must not stop the live index: a tree 100 levels deep, symlink loops,
 * a file replaced by a folder of its name, 100,000 events in one burst, a
 * watched file that grows to 2 GB; and the kernel's watch limit, past which
 * a root is rescanned instead, named in status with the limit and the fix.
 * Each is handled and reported; none stops the watcher or the server, and
 * none deletes what is still on disk.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, ftruncateSync, mkdirSync, openSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BINARY, tempDir, waitFor, writeTree } from "../helpers.ts";
import { killAll, mcpServer, versionedDoc } from "./sync-procs.ts";
import { indexContents, waitForFreshIndex, watchEnv, watchOf, type Server } from "./watch-procs.ts";

afterAll(killAll);

describe("bad input under a watched root", () => {
  const root = tempDir("minirag-watch-bad-");
  const dbPath = join(tempDir("minirag-watch-bad-db-"), "lancedb");
  const deep = Array.from({ length: 100 }, (_, i) => `d${i}`).join("/");
  let server: Server;

  beforeAll(async () => {
    writeTree(root, { "top.md": versionedDoc("top", 1), [`${deep}/bottom.md`]: versionedDoc("bottom", 1), "x.md": versionedDoc("x", 1) });
    server = await mcpServer(watchEnv([root], dbPath));
    await waitForFreshIndex(dbPath, [root]);
  });
  afterAll(async () => server?.client.close());

  test("a tree 100 levels deep is watched to its bottom", async () => {
    expect((await watchOf(server)).folders).toBe(101);
    writeFileSync(join(root, deep, "bottom.md"), versionedDoc("bottom", 2));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("symlink loops (file links in a ring, a folder linked into itself) are named, never followed", async () => {
    symlinkSync(join(root, "ring-b.md"), join(root, "ring-a.md"));
    symlinkSync(join(root, "ring-a.md"), join(root, "ring-b.md"));
    symlinkSync(root, join(root, "d0", "again"));
    await waitFor(async () => (await watchOf(server)).lastSync.errors.some((e: any) => e.error.includes("symlink loop")), 30_000, "the loop named in the last sync's errors");
    await waitForFreshIndex(dbPath, [root]);
    expect((await watchOf(server)).folders).toBe(101);
  });

  test("a file replaced by a folder of the same name", async () => {
    rmSync(join(root, "x.md"));
    mkdirSync(join(root, "x.md"));
    writeFileSync(join(root, "x.md", "inner.md"), versionedDoc("inner", 1));
    await waitForFreshIndex(dbPath, [root]);
    expect((await indexContents(dbPath)).has(join(root, "x.md", "inner.md"))).toBe(true);
  });

  test("100,000 events in one burst become a few syncs, and the index is right after them", async () => {
    const before = (await watchOf(server)).syncs;
    mkdirSync(join(root, "flood"));
    const files = Array.from({ length: 200 }, (_, i) => join(root, "flood", `f${i}.md`));
    // Each rewrite is at least two events (truncate, write): 200 files x 250 rewrites, about 100,000, in a few seconds.
    for (let round = 0; round < 250; round++) for (const [i, file] of files.entries()) writeFileSync(file, `# Flood ${i}\n\nRound ${round}.\n`);
    await waitForFreshIndex(dbPath, [root], 90_000);
    const watch = await waitFor(async () => {
      const w = await watchOf(server);
      return w.pendingChanges === 0 && w.state === "watching" ? w : null;
    }, 30_000, "nothing waiting");
    expect(watch.syncs - before).toBeLessThanOrEqual(3);
  });

  test("a watched file that grows to 2 GB is refused by name, and nothing else is touched", async () => {
    const big = join(root, "growing.md");
    const fd = openSync(big, "w");
    // Sparse: the file system stores no data for the holes, so 2 GB costs nothing here.
    for (const size of [1, 256, 512, 1024, 2048]) ftruncateSync(fd, size * 1024 * 1024);
    closeSync(fd);
    const sync = await waitFor(async () => (await watchOf(server)).lastSync.errors.find((e: any) => e.source === big), 30_000, "the 2 GB file named in the errors");
    expect(sync.error).toContain("MAX_FILE_SIZE");
    await waitForFreshIndex(dbPath, [root]);
    rmSync(big);
  });
});

describe("past the kernel's watch limit", () => {
  const unshare = Bun.spawnSync(["unshare", "-Ur", "sh", "-c", "echo 5 > /proc/sys/user/max_inotify_watches"]);
  const canLimit = process.platform === "linux" && unshare.exitCode === 0;

  test.skipIf(!canLimit)("a root with more folders than the limit is rescanned, and status names the limit and the fix", async () => {
    const root = tempDir("minirag-watch-limit-");
    writeTree(root, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}/doc.md`, versionedDoc(`doc-${i}`, 1)])));
    const dbPath = join(tempDir("minirag-watch-limit-db-"), "lancedb");
    // A user namespace of its own, where the limit can be lowered without touching the machine's.
    const client = new Client({ name: "watch-limit", version: "0" });
    await client.connect(
      new StdioClientTransport({
        command: "unshare",
        args: ["-Ur", "sh", "-c", 'echo 5 > /proc/sys/user/max_inotify_watches && exec "$0"', BINARY],
        env: watchEnv([root], dbPath, { RAG_RESCAN_INTERVAL: "2" }),
        stderr: "pipe",
      }),
    );
    try {
      const status = async () => ((await client.callTool({ name: "status", arguments: {} })) as any).structuredContent.watch;
      const limited = await waitFor(async () => {
        const w = await status();
        return w.roots?.[0]?.mode === "rescan" ? w : null;
      }, 30_000, "the root in rescan mode");
      expect(limited.roots[0].reason).toBe("inotify watch limit 5 reached: rescanning every 2 s; raise fs.inotify.max_user_watches to watch");
      expect(limited.fallback).toEqual([`${root}: inotify watch limit 5 reached: rescanning every 2 s; raise fs.inotify.max_user_watches to watch`]);
      await waitForFreshIndex(dbPath, [root]);
      // Found by a rescan, with no event to tell.
      writeFileSync(join(root, "f11/doc.md"), versionedDoc("doc-11", 2));
      await waitForFreshIndex(dbPath, [root]);
    } finally {
      await client.close();
    }
  });

  if (!canLimit) test.skip(`needs Linux and unshare -Ur (${unshare.stderr.toString().trim() || process.platform})`, () => {});
});

describe("a root on a file system whose events may not arrive", () => {
  // bindfs mounts a folder through FUSE, as sshfs and other network file systems are mounted: a change made in the
  // folder underneath (as another machine's change reaches a share) sends no event through the mount.
  const canMount = process.platform === "linux" && process.getuid?.() === 0 && Bun.which("bindfs") !== null;

  test.skipIf(!canMount)("is watched and rescanned: status names the file system, and a change no event announced is found by a rescan", async () => {
    const underneath = tempDir("minirag-watch-fuse-src-");
    writeTree(underneath, { "a.md": versionedDoc("a", 1) });
    const root = tempDir("minirag-watch-fuse-");
    expect(Bun.spawnSync(["bindfs", underneath, root]).exitCode).toBe(0);
    const dbPath = join(tempDir("minirag-watch-fuse-db-"), "lancedb");
    const client = new Client({ name: "watch-fuse", version: "0" });
    try {
      await client.connect(new StdioClientTransport({ command: BINARY, args: [], env: watchEnv([root], dbPath, { RAG_RESCAN_INTERVAL: "2" }), stderr: "pipe" }));
      const watched = await waitFor(async () => {
        const w = ((await client.callTool({ name: "status", arguments: {} })) as any).structuredContent.watch;
        return w.roots?.[0]?.mode === "events+rescan" ? w : null;
      }, 30_000, "the root watched and rescanned");
      expect(watched.roots[0].reason).toBe("it is on a fuse file system, where changes made by another machine send no events: rescanning every 2 s");
      await waitForFreshIndex(dbPath, [root]);
      writeFileSync(join(underneath, "a.md"), versionedDoc("a", 2));
      writeFileSync(join(underneath, "b.md"), versionedDoc("b", 1));
      await waitForFreshIndex(dbPath, [root]);
    } finally {
      await client.close();
      Bun.spawnSync(["fusermount", "-u", root]);
    }
  });

  if (!canMount) test.skip("needs Linux, root and bindfs (apt install bindfs) to mount a FUSE file system", () => {});
});
