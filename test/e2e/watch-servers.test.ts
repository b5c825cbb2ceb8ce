/**
 * Several servers, one index: two MCP clients (say Claude Desktop and Cursor)
 * start two servers on the same folder. Both watch; one syncs at a time
 * through the index's lock and the other waits and retries quietly, with no
 * error in its status; both answer from the newest version. A CLI sync
 * started by hand meanwhile is waited for the same way.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, waitFor, writeTree } from "../helpers.ts";
import { killAll, mcpServer, start, versionedDoc, type ToolResult } from "./sync-procs.ts";
import { waitForFreshIndex, watchEnv, watchOf, type Server } from "./watch-procs.ts";

afterAll(killAll);

const root = tempDir("minirag-watch-two-");
const dbPath = join(tempDir("minirag-watch-two-db-"), "lancedb");
const env = watchEnv([root], dbPath);
let servers: Server[] = [];

beforeAll(async () => {
  writeTree(root, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`doc-${i}.md`, versionedDoc(`doc-${i}`, 1)])));
  servers = await Promise.all([mcpServer(env), mcpServer(env)]);
});
afterAll(async () => Promise.all(servers.map((s) => s.client.close())));

/** Whether the server's search finds the word in that file. */
async function finds(server: Server, word: string, file: string): Promise<boolean> {
  const result: ToolResult = await server.call("query_documents", { query: word, topK: 5 });
  return !result.isError && result.structuredContent!.results.some((r: any) => r.source === join(root, file) && r.text.includes(word));
}

describe("two servers watching one folder and one index", () => {
  test("both catch up at start, one sync at a time, and neither reports the other's lock as an error", async () => {
    await waitForFreshIndex(dbPath, [root]);
    const watches = await Promise.all(servers.map(watchOf));
    for (const watch of watches) {
      expect(watch.enabled).toBe(true);
      expect(watch.lastSync?.error).toBeUndefined();
    }
  });

  test("an edit is found by both, from the newest version", async () => {
    writeFileSync(join(root, "doc-3.md"), `${versionedDoc("doc-3", 2)}\nThe quokkabanana clause was added.\n`);
    await waitFor(async () => (await Promise.all(servers.map((s) => finds(s, "quokkabanana", "doc-3.md")))).every(Boolean), 30_000, "both servers to find the new word");
    await waitForFreshIndex(dbPath, [root]);
    for (const watch of await Promise.all(servers.map(watchOf))) expect(watch.lastSync.error).toBeUndefined();
  });

  test("a CLI sync started by hand holds the lock while files change: the servers wait for it and then sync the rest, without an error", async () => {
    writeTree(root, Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`batch/page-${i}.md`, versionedDoc(`page-${i}`, 1)])));
    const cli = start(["sync", "--json"], { ...env, RAG_WATCH: "false" });
    // While it runs: a change the servers must not lose.
    writeFileSync(join(root, "doc-7.md"), `${versionedDoc("doc-7", 2)}\nThe wombatpear clause was added.\n`);
    const done = await cli.done;
    // Refused only if a server's sync took the lock first; either way the servers finish the job.
    expect([0, 1]).toContain(done.exitCode ?? -1);
    await waitFor(async () => (await Promise.all(servers.map((s) => finds(s, "wombatpear", "doc-7.md")))).every(Boolean), 60_000, "both servers to find the word written during the CLI sync");
    await waitForFreshIndex(dbPath, [root], 60_000);
    // A server that found the lock taken retries by itself until nothing waits.
    const settled = await waitFor(async () => {
      const watches = await Promise.all(servers.map(watchOf));
      return watches.every((w) => w.pendingChanges === 0 && !w.waiting && w.state === "watching") ? watches : null;
    }, 30_000, "both servers with nothing waiting");
    for (const watch of settled) expect(watch.lastSync.error).toBeUndefined();
  });
});
