/** An empty index's notice while this server syncs (src/mcp/sync-under-way.ts). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import type { ToolContext } from "../../src/mcp/context.ts";
import { whileSyncing } from "../../src/mcp/sync-under-way.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import type { SyncJobs } from "../../src/sync/sync-jobs.ts";
import type { Watcher } from "../../src/watch/watcher.ts";
import { tempDir } from "../helpers.ts";

const app = createApp(loadConfig({ env: { BASE_DIR: tempDir(), DB_PATH: join(tempDir(), "db") } }), { log: () => {} });
const unwatched = createApp(loadConfig({ env: { BASE_DIR: tempDir(), DB_PATH: join(tempDir(), "db"), RAG_WATCH: "false" } }), { log: () => {} });
const watcherIn = (state: string) => ({ status: () => ({ enabled: true, state }) }) as unknown as Watcher;

describe("an empty index's answer from the server", () => {
  test("while its first sync, a watched sync or a job runs, it says to wait; otherwise to sync", async () => {
    const answer = await queryDocuments(app, { query: "harbour" });
    expect(answer.notice).toContain("Run sync_start");
    const cases: [string, ToolContext, "job" | "watch" | null][] = [
      ["nothing running, watching off", { app: unwatched }, null],
      ["a server just started, its watcher not made yet", { app }, "watch"],
      ["the watcher starting (its catch-up sync)", { app, watcher: watcherIn("starting") }, "watch"],
      ["a watched sync", { app, watcher: watcherIn("syncing") }, "watch"],
      ["the watcher idle", { app, watcher: watcherIn("watching") }, null],
      ["a sync_start job, the watcher idle", { app, watcher: watcherIn("watching"), jobs: { busy: true } as SyncJobs }, "job"],
    ];
    for (const [name, ctx, waits] of cases) {
      const notice = whileSyncing(answer, ctx.app!, ctx).notice!;
      // A job has a jobId for sync_status; the live index's own sync has none, so status is named there.
      expect(notice.includes("A sync is under way: ask again when it ends (sync_status shows how far it has got)"), name).toBe(waits === "job");
      expect(notice.includes("The server is syncing the folder on its own: ask again in a moment (status shows how far it has got under watch)"), name).toBe(waits === "watch");
      expect(notice.includes("Run sync_start"), name).toBe(waits === null);
    }
  });

  test("an answer with no empty-index notice is left as it is", () => {
    const answer = { results: [], notice: "Keyword search only." };
    expect(whileSyncing(answer, app, { app, watcher: watcherIn("syncing") })).toBe(answer);
  });
});
