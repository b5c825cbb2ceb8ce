/**
 * The live index against every way editors and tools change files, with the
 * compiled binary as a watching MCP server and real file events: after each
 * change the index equals a fresh sync of the tree (nothing lost, nothing
 * twice), with no sync_start called. Moves keep their chunks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, waitFor, writeTree } from "../helpers.ts";
import { killAll, mcpServer, versionedDoc } from "./sync-procs.ts";
import { indexContents, waitForFreshIndex, waitForSync, watchEnv, watchIdle, watchOf, type Server } from "./watch-procs.ts";

afterAll(killAll);

const root = tempDir("minirag-watch-edits-");
// The index inside the root, as by default: it must never be watched, and its own writes must never start a sync.
const dbPath = join(root, ".minirag", "lancedb");
let server: Server;
const now = () => new Date().toISOString();

beforeAll(async () => {
  writeTree(root, {
    "notes/plan.md": versionedDoc("plan", 1),
    "notes/old/archive.md": versionedDoc("archive", 1),
    "team/roster.md": versionedDoc("roster", 1),
    "reports/q1.md": versionedDoc("q1", 1),
    "reports/q2.md": versionedDoc("q2", 1),
    "keep/a.md": versionedDoc("keep-a", 1),
  });
  server = await mcpServer(watchEnv([root], dbPath));
});
afterAll(async () => server?.client.close());

describe("a watching server, with no sync_start", () => {
  test("catches up at start with what is on disk", async () => {
    await waitForFreshIndex(dbPath, [root]);
    // The catch-up sync records itself after its last write (its document vectors, its upkeep): wait for it to end.
    const watch = await watchIdle(server);
    expect(watch).toMatchObject({ enabled: true, state: "watching" });
    expect(watch.lastSync.trigger).toBe("start");
    // The model is told, so it stops calling sync_start before every question.
    expect(server.client.getInstructions()).toContain("The index follows the user's folders by itself");
    // root, notes, notes/old, team, reports, keep: never .minirag or the index under it.
    expect(watch.folders).toBe(6);
  });

  test("a file written in place, and the server's log says what the live index did (it said nothing; found by a probe)", async () => {
    writeFileSync(join(root, "notes/plan.md"), versionedDoc("plan", 2));
    await waitForFreshIndex(dbPath, [root]);
    await waitFor(() => /watch: \d\d:\d\d:\d\d changes: 1 changed path: scanned 1, ingested 1/.test(server.stderr()), 10_000, "the log line of the sync");
  });

  test("a temp file renamed over the original, with a backup and a lock file beside it (vim, VS Code, JetBrains, LibreOffice)", async () => {
    const target = join(root, "team/roster.md");
    writeFileSync(join(root, "team/.~lock.roster.md#"), "lock");
    renameSync(target, `${target}~`);
    writeFileSync(join(root, "team/roster.md.tmp123"), versionedDoc("roster", 2));
    renameSync(join(root, "team/roster.md.tmp123"), target);
    unlinkSync(`${target}~`);
    unlinkSync(join(root, "team/.~lock.roster.md#"));
    await waitForFreshIndex(dbPath, [root]);
    expect((await indexContents(dbPath)).get(target)?.join("\n")).toContain("[ver002]");
  });

  test("a file deleted and written again", async () => {
    unlinkSync(join(root, "reports/q1.md"));
    writeFileSync(join(root, "reports/q1.md"), versionedDoc("q1", 3));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("a file moved keeps its chunks: moved, nothing read or embedded", async () => {
    const since = now();
    renameSync(join(root, "reports/q2.md"), join(root, "notes/q2.md"));
    const sync = await waitForSync(server, since, (c) => c.moved === 1);
    expect(sync.counts).toMatchObject({ moved: 1, ingested: 0 });
    await waitForFreshIndex(dbPath, [root]);
  });

  test("a whole folder moved keeps the chunks of every file in it", async () => {
    const since = now();
    renameSync(join(root, "notes"), join(root, "notebook"));
    const sync = await waitForSync(server, since, (c) => c.moved === 3);
    expect(sync.counts).toMatchObject({ moved: 3, ingested: 0, deleted: 0 });
    await waitForFreshIndex(dbPath, [root]);
    // The moved folder is watched at its new path: an edit inside it is followed.
    writeFileSync(join(root, "notebook/old/archive.md"), versionedDoc("archive", 2));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("rm -rf of a subfolder", async () => {
    rmSync(join(root, "notebook/old"), { recursive: true });
    await waitForFreshIndex(dbPath, [root]);
  });

  test("a folder moved out of the root, which sends one event, for the folder", async () => {
    mkdirSync(join(root, "leaving"));
    writeFileSync(join(root, "leaving/gone.md"), versionedDoc("gone", 1));
    await waitForFreshIndex(dbPath, [root]);
    renameSync(join(root, "leaving"), join(tempDir("minirag-watch-outside-"), "leaving"));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("a new folder with files in it, nested", async () => {
    mkdirSync(join(root, "new/deeper/deepest"), { recursive: true });
    writeFileSync(join(root, "new/deeper/one.md"), versionedDoc("one", 1));
    writeFileSync(join(root, "new/deeper/deepest/two.md"), versionedDoc("two", 1));
    await waitForFreshIndex(dbPath, [root]);
    // Its folders are watched from the first event on.
    writeFileSync(join(root, "new/deeper/deepest/three.md"), versionedDoc("three", 1));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("permissions: a file made unreadable keeps what is indexed for it; readable again, its new text is read", async () => {
    if (process.getuid?.() === 0) {
      // root reads a 000 file all the same: the change of mode is still an event, and the index must not move.
      chmodSync(join(root, "keep/a.md"), 0o000);
      await waitForFreshIndex(dbPath, [root]);
      chmodSync(join(root, "keep/a.md"), 0o644);
      return;
    }
    const before = (await indexContents(dbPath)).get(join(root, "keep/a.md"));
    chmodSync(join(root, "keep/a.md"), 0o000);
    writeFileSync(join(root, "keep/b.md"), versionedDoc("keep-b", 1));
    await waitFor(async () => (await indexContents(dbPath)).has(join(root, "keep/b.md")), 30_000, "keep/b.md indexed");
    expect((await indexContents(dbPath)).get(join(root, "keep/a.md"))).toEqual(before);
    chmodSync(join(root, "keep/a.md"), 0o644);
    await waitForFreshIndex(dbPath, [root]);
  });

  test("symlinks: a link made to an indexed file leaves it under its own path (once, not twice), an edit of its target follows, a removed link changes nothing", async () => {
    writeFileSync(join(root, "team/target.md"), versionedDoc("target", 1));
    await waitForFreshIndex(dbPath, [root]);
    // keep/a-link.md sorts before team/target.md: the file is still indexed under its own path, never the link's.
    symlinkSync(join(root, "team/target.md"), join(root, "keep/a-link.md"));
    await waitForFreshIndex(dbPath, [root]);
    const indexed = await indexContents(dbPath);
    expect([indexed.has(join(root, "team/target.md")), indexed.has(join(root, "keep/a-link.md"))]).toEqual([true, false]);
    writeFileSync(join(root, "team/target.md"), versionedDoc("target", 2));
    await waitForFreshIndex(dbPath, [root]);
    unlinkSync(join(root, "keep/a-link.md"));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("symlinks the scan leaves out: one that leads out of the root, one to a file in a dot-folder; each leaves the index as a fresh sync has it, and later edits still follow", async () => {
    const outside = tempDir("minirag-watch-outside-");
    writeFileSync(join(outside, "o.md"), versionedDoc("outside", 1));
    writeTree(root, { ".hid/h.md": versionedDoc("hidden", 1) });
    symlinkSync(join(outside, "o.md"), join(root, "keep/out-link.md"));
    symlinkSync(join(root, ".hid/h.md"), join(root, "keep/hid-link.md"));
    await waitForFreshIndex(dbPath, [root]);
    // A link out of the roots stopped every later watched sync: this edit was never picked up.
    writeFileSync(join(root, "keep/a.md"), versionedDoc("keep-a", 2));
    await waitForFreshIndex(dbPath, [root]);
    unlinkSync(join(root, "keep/out-link.md"));
    unlinkSync(join(root, "keep/hid-link.md"));
    rmSync(join(root, ".hid"), { recursive: true });
    await waitForFreshIndex(dbPath, [root]);
  });

  test(".miniragignore edited: its rules apply at once, both ways", async () => {
    writeFileSync(join(root, ".miniragignore"), "team/\n");
    await waitForFreshIndex(dbPath, [root]);
    expect([...(await indexContents(dbPath)).keys()].some((s) => s.includes("/team/"))).toBe(false);
    writeFileSync(join(root, ".miniragignore"), "# nothing left out\n");
    await waitForFreshIndex(dbPath, [root]);
    expect([...(await indexContents(dbPath)).keys()].some((s) => s.includes("/team/"))).toBe(true);
    // A folder the rules let in again is watched again.
    writeFileSync(join(root, "team/late.md"), versionedDoc("late", 1));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("a folder the rules kept out from its first event, let in: it and the folders under it are watched from then on", async () => {
    writeFileSync(join(root, ".miniragignore"), "drafts/\n");
    await waitForFreshIndex(dbPath, [root]);
    writeTree(root, { "drafts/plan.md": versionedDoc("plan", 1), "drafts/deep/idea.md": versionedDoc("idea", 1) });
    await waitForFreshIndex(dbPath, [root]);
    writeFileSync(join(root, ".miniragignore"), "# drafts let in\n");
    await waitForFreshIndex(dbPath, [root]);
    expect([...(await indexContents(dbPath)).keys()].some((s) => s.endsWith("/drafts/deep/idea.md"))).toBe(true);
    // Before, the rules let the files in but the folders stayed unwatched: these were never synced.
    writeFileSync(join(root, "drafts/deep/later.md"), versionedDoc("later", 1));
    writeFileSync(join(root, "drafts/plan.md"), versionedDoc("plan", 2));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("a folder deleted and made again at once (a build's output), then edited: the new folders are watched", async () => {
    writeTree(root, { "out/a.md": versionedDoc("out-a", 1), "out/sub/s.md": versionedDoc("out-s", 1) });
    await waitForFreshIndex(dbPath, [root]);
    // ext4 gives the new folder the old one's inode number: only its birth time tells them apart.
    rmSync(join(root, "out"), { recursive: true });
    mkdirSync(join(root, "out/sub"), { recursive: true });
    writeFileSync(join(root, "out/a.md"), versionedDoc("out-a", 2));
    await waitForFreshIndex(dbPath, [root]);
    writeFileSync(join(root, "out/later.md"), versionedDoc("out-later", 1));
    writeFileSync(join(root, "out/sub/later2.md"), versionedDoc("out-later2", 1));
    writeFileSync(join(root, "out/a.md"), versionedDoc("out-a", 3));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("a case-only rename and a name stored decomposed (NFD)", async () => {
    renameSync(join(root, "keep/a.md"), join(root, "keep/A.md"));
    const nfd = "Café-notes.md".normalize("NFD");
    writeFileSync(join(root, "keep", nfd), versionedDoc("cafe", 1));
    await waitForFreshIndex(dbPath, [root]);
    expect((await indexContents(dbPath)).has(join(root, "keep", nfd))).toBe(true);
    writeFileSync(join(root, "keep", nfd), versionedDoc("cafe", 2));
    await waitForFreshIndex(dbPath, [root]);
  });

  test("two files of the same size and modification time swapped by renames: each path gets the other's text (found by a probe)", async () => {
    const [x, y] = [join(root, "keep/swap-x.md"), join(root, "keep/swap-y.md")];
    writeFileSync(x, "# Swap\n\nword apple\n");
    writeFileSync(y, "# Swap\n\nword mango\n");
    const when = new Date("2026-01-02T03:04:05Z");
    utimesSync(x, when, when);
    utimesSync(y, when, when);
    await waitForFreshIndex(dbPath, [root]);
    // Through a temporary name of a supported type, so the plan widens the changes to their folder (a reviewer's find).
    renameSync(x, join(root, "keep/swap-t.md"));
    renameSync(y, x);
    renameSync(join(root, "keep/swap-t.md"), y);
    const index = await waitForFreshIndex(dbPath, [root]);
    expect(index.get(x)?.join("\n")).toContain("mango");
    expect(index.get(y)?.join("\n")).toContain("apple");
  });

  test("a node_modules folder that appears with files inside (npm install) is never indexed (found by a probe)", async () => {
    const since = now();
    mkdirSync(join(root, "keep/node_modules/pkg"), { recursive: true });
    writeFileSync(join(root, "keep/node_modules/pkg/README.md"), versionedDoc("pkg", 1));
    // Written after it, so the sync that takes this file has taken the folder's events too.
    writeFileSync(join(root, "keep/after-install.md"), versionedDoc("after-install", 1));
    await waitForSync(server, since, (counts) => (counts.ingested ?? 0) >= 1);
    await watchIdle(server);
    const index = await waitForFreshIndex(dbPath, [root]);
    expect([...index.keys()].filter((source) => source.includes("node_modules"))).toEqual([]);
    expect([...(await indexContents(dbPath)).keys()].filter((source) => source.includes("node_modules"))).toEqual([]);
  });

  test("a file still being written waits until it settles, then is synced once, whole", async () => {
    const before = (await watchIdle(server)).syncs;
    const path = join(root, "keep/slow.md");
    writeFileSync(path, "# Slow\n\n");
    // A line every 200 ms for 3 s: the folder is never quiet for a second meanwhile.
    for (let i = 0; i < 15; i++) {
      appendFileSync(path, `Line ${i} of a file written slowly, as a download or a copy writes it.\n\n`);
      const next = Date.now() + 200;
      await waitFor(() => Date.now() >= next, 1_000, "the next write");
    }
    await waitForFreshIndex(dbPath, [root]);
    expect((await indexContents(dbPath)).get(path)?.join("\n")).toContain("Line 14 of");
    expect((await watchIdle(server)).syncs - before).toBe(1);
  });

  test("the index's own writes start no sync: with nothing changed, no sync follows the last one", async () => {
    const last = (await watchIdle(server)).lastSync.finishedAt;
    // Two quiet periods and more: a sync set off by the index folder's writes would have come by now.
    const until = Date.now() + 3_000;
    await waitFor(() => Date.now() > until, 5_000, "three seconds");
    const watch = await watchOf(server);
    expect(watch.lastSync.finishedAt).toBe(last);
    expect(watch.pendingChanges).toBe(0);
  });
});
