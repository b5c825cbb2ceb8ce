/**
 * Shared parts of the live-index tests: the compiled binary as a watching MCP
 * server, its watch status, and the check that matters: the watched index
 * holds exactly what a fresh sync of the same tree would (the same sources,
 * each with the same chunk texts), so nothing indexed was lost and nothing
 * is there twice.
 */
import { join } from "node:path";
import { tempDir, waitFor } from "../helpers.ts";
import { binaryEnv, mcpServer, readRows, run } from "./sync-procs.ts";

/** The environment of a watching server (watching is the default; said here so the tests do not depend on it). */
export function watchEnv(roots: string[], dbPath: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...binaryEnv(roots, dbPath), RAG_WATCH: "true", ...extra };
}

export type Server = Awaited<ReturnType<typeof mcpServer>>;

/** The server's `watch` status. */
export async function watchOf(server: Server): Promise<Record<string, any>> {
  const result = await server.call("status");
  return result.structuredContent!.watch;
}

/**
 * The watch status once no sync runs and no change waits. The index can equal a fresh sync
 * before the sync that wrote it has recorded itself, so counts of syncs are read only after this.
 */
export async function watchIdle(server: Server): Promise<Record<string, any>> {
  let watch: Record<string, any> = {};
  await waitFor(async () => {
    watch = await watchOf(server);
    return watch.state === "watching" && watch.pendingChanges === 0;
  }, 30_000, "the watcher to be idle");
  return watch;
}

/** source -> its chunk texts in chunk order, for every file source of the index. */
export async function indexContents(dbPath: string): Promise<Map<string, string[]>> {
  const rows = await readRows(dbPath);
  const out = new Map<string, string[]>();
  for (const [source, chunks] of rows) out.set(source, [...chunks].sort((a, b) => a.chunk_index - b.chunk_index).map((c) => c.text));
  return out;
}

/** What a fresh sync of the roots indexes, by the same binary into a new index outside them. */
export async function freshSync(roots: string[]): Promise<Map<string, string[]>> {
  const dbPath = join(tempDir("minirag-fresh-db-"), "lancedb");
  const result = await run(["sync", "--json"], { ...binaryEnv(roots, dbPath), RAG_WATCH: "false" }, 180_000);
  if (result.exitCode !== 0 && !result.stdout.includes('"counts"')) throw new Error(`the fresh sync failed: ${result.stderr}`);
  return indexContents(dbPath);
}

/** Where two indexes differ: sources only in one, and sources whose chunk texts differ; [] when they hold the same. */
export function differences(actual: Map<string, string[]>, expected: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [source, texts] of expected) {
    const got = actual.get(source);
    if (!got) out.push(`missing ${source}`);
    else if (got.length !== texts.length || got.some((t, i) => t !== texts[i])) out.push(`differs ${source} (${got.length} chunks, fresh sync ${texts.length})`);
  }
  for (const source of actual.keys()) if (!expected.has(source)) out.push(`extra ${source}`);
  return out;
}

/** Waits until the watched index equals a fresh sync of the roots as they are now; fails listing the differences left. */
export async function waitForFreshIndex(dbPath: string, roots: string[], timeoutMs = 30_000): Promise<Map<string, string[]>> {
  const expected = await freshSync(roots);
  let left: string[] = [];
  try {
    await waitFor(async () => {
      left = differences(await indexContents(dbPath), expected);
      return left.length === 0;
    }, timeoutMs, "the watched index to equal a fresh sync");
  } catch (error) {
    throw new Error(`${(error as Error).message}: ${left.slice(0, 10).join("; ")}`);
  }
  return expected;
}

/** Waits for a watched sync after `since` (an ISO time) whose counts pass the check; returns it. */
export async function waitForSync(server: Server, since: string, check: (counts: Record<string, number>) => boolean, timeoutMs = 30_000): Promise<Record<string, any>> {
  return waitFor(
    async () => {
      const last = (await watchOf(server))?.lastSync;
      return last && last.startedAt > since && check(last.counts) ? last : null;
    },
    timeoutMs,
    "a watched sync with the expected counts",
  );
}
