/**
 * An MCP server answers query_documents and read_file in a loop while a CLI
 * sync in another process rewrites all 100 files: no call fails, and no
 * answer mixes chunks of two versions of one source (each write swaps a
 * source's chunks in one commit, and the server reads the newest commit).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { binaryEnv, killAll, mcpServer, run, start, versionsIn, writeVersion, type ToolResult } from "./sync-procs.ts";

const FILES = 100;
const names = Array.from({ length: FILES }, (_, i) => `note${String(i + 1).padStart(3, "0")}`);
const root = tempDir("minirag-readers-root-");
const dbPath = join(tempDir("minirag-readers-db-"), "lancedb");
const env = binaryEnv([root], dbPath);
let server: Awaited<ReturnType<typeof mcpServer>>;

beforeAll(async () => {
  writeVersion(root, names, 1);
  const first = await run(["sync"], env);
  expect(first.exitCode).toBe(0);
  server = await mcpServer(env);
  // Loads the model before the clock starts, so the loop below runs while the sync writes.
  expect((await server.call("query_documents", { query: "harbour crane" })).isError).toBeFalsy();
});

afterAll(async () => {
  await server?.client.close();
  await killAll();
});

/** Versions each source shows in one query answer, in its chunks and in the parents they cite. */
function versionsBySource(answer: Record<string, any>): Map<string, { chunks: number[]; parents: number[] }> {
  const texts = new Map<string, { chunks: string[]; parents: string[] }>();
  for (const r of answer.results as { source: string; text: string; parentId: string | null }[]) {
    const entry = texts.get(r.source) ?? { chunks: [], parents: [] };
    entry.chunks.push(r.text);
    if (r.parentId && answer.parents[r.parentId]) entry.parents.push(answer.parents[r.parentId]);
    texts.set(r.source, entry);
  }
  return new Map([...texts].map(([source, t]) => [source, { chunks: versionsIn(t.chunks.join("\n")), parents: versionsIn(t.parents.join("\n")) }]));
}

describe("an MCP server reading while a CLI sync rewrites its files", () => {
  test(
    "answers every query_documents and read_file call, and never mixes two versions of one source",
    async () => {
      writeVersion(root, names, 2);
      const sync = start(["sync", "--json"], env);
      let syncing = true;
      const finished = sync.done.finally(() => (syncing = false));
      const problems: string[] = [];
      const seen = { queries: 0, reads: 0, versions: new Set<number>() };
      const failed = (what: string, result: ToolResult) => problems.push(`${what} failed: ${result.content[0]?.text}`);

      const queries = (async () => {
        while (syncing) {
          const result = await server.call("query_documents", { query: "harbour crane lifts blue containers onto the night ferry", topK: 30 });
          seen.queries++;
          if (result.isError) {
            failed("query_documents", result);
            continue;
          }
          for (const [source, { chunks, parents }] of versionsBySource(result.structuredContent!)) {
            const versions = [...new Set([...chunks, ...parents])];
            for (const v of versions) seen.versions.add(v);
            if (versions.length !== 1) problems.push(`query_documents mixed versions of ${source}: chunks of version ${chunks.join(" and ")}, parents of version ${parents.join(" and ")}`);
          }
        }
      })();
      const reads = (async () => {
        for (let i = 0; syncing; i++) {
          const name = names[(i * 37) % FILES]!;
          const result = await server.call("read_file", { filePath: join(root, `${name}.md`) });
          seen.reads++;
          if (result.isError) {
            failed(`read_file ${name}`, result);
            continue;
          }
          const versions = versionsIn(result.structuredContent!.text);
          for (const v of versions) seen.versions.add(v);
          if (versions.length !== 1) problems.push(`read_file ${name} mixed versions ${versions.join(" and ")}`);
        }
      })();

      const outcome = await finished;
      await Promise.all([queries, reads]);
      console.error(`readers during the sync: ${seen.queries} queries, ${seen.reads} reads, versions seen ${[...seen.versions].join(", ")}`);
      expect(outcome.exitCode).toBe(0);
      expect(JSON.parse(outcome.stdout).counts).toMatchObject({ ingested: FILES, failed: 0 });
      expect(problems).toEqual([]);
      // The loop must have seen the rewrite happen, or it proved nothing.
      expect(seen.queries + seen.reads).toBeGreaterThan(20);
      expect([...seen.versions].sort()).toEqual([1, 2]);

      const after = await server.call("query_documents", { query: "harbour crane", topK: 30 });
      expect([...versionsBySource(after.structuredContent!).values()].flatMap((v) => [...v.chunks, ...v.parents]).every((v) => v === 2)).toBe(true);
    },
    90_000,
  );
});
