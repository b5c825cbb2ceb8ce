/**
 * A reader's server follows the writer: B's open App (filling its local copy,
 * as the MCP server does) answers from the store, then from its copy, the
 * same; A's next sync is seen on B's next query without a restart. Shared by
 * the team-index tests of each store.
 */
import { expect } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { runAs } from "./team-fixture.ts";

type Env = Record<string, string>;

async function sync(env: Env): Promise<string> {
  const run = await runAs(env, ["sync"]);
  if (run.exitCode !== 0) throw new Error(`sync failed: ${run.stderr}`);
  return run.stdout;
}


/** a: the writer's environment (BASE_DIR = docs), b: the reader's. Returns B's warm query times from its copy and its first query after A's commit. */
export async function readerFollowsWriter(a: Env, b: Env, docs: string): Promise<{ warm: number[]; afterCommitMs: number }> {
  await sync(a);
  const app = createApp(loadConfig({ env: b, cwd: b.HOME, home: b.HOME }), { log: () => {}, fillLocalCopy: true });
  const ask = () => queryDocuments(app, { query: "zebra quartz harbour", topK: 3 });
  const fromStore = await ask();
  expect(fromStore.results.map((r) => r.source)).not.toContain("library/added.md");
  // The first query started the local copy (store/object-mirror.ts), and a new reader waits a while for its first copy;
  // once the copy holds the version, answers come from it, the same as the store's.
  const copy = app.store.localCopy!;
  await copy.settled();
  expect(copy.folder.startsWith(b.HOME!)).toBe(true);
  expect(await ask()).toEqual(fromStore);
  const storeOnly = createApp(loadConfig({ env: { ...b, RAG_LOCAL_COPY: "false" }, cwd: b.HOME, home: b.HOME }), { log: () => {} });
  expect(await queryDocuments(storeOnly, { query: "zebra quartz harbour", topK: 3 })).toEqual(fromStore);
  const warm: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    await ask();
    warm.push(performance.now() - start);
  }
  writeFileSync(join(docs, "added.md"), "# Added\n\nA zebra quartz harbour sentence that only the added document holds.\n");
  try {
    expect(await sync(a)).toContain("ingested 1");
    const start = performance.now();
    const after = await ask();
    const afterCommitMs = performance.now() - start;
    expect(after.results[0]!.source).toBe("library/added.md");
    // Read from the store while the new version is copied, then from the copy: the same answer.
    await copy.settled();
    expect(await ask()).toEqual(after);
    return { warm: warm.sort((x, y) => x - y), afterCommitMs };
  } finally {
    rmSync(join(docs, "added.md"));
  }
}
