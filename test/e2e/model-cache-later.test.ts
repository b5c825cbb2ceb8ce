/**
 * The compiled server where CACHE_DIR holds no optimised copy of the model
 * answers its first question from the model alone and writes the copy once
 * it has been idle (embed/later-model-cache.ts); a CLI command still writes
 * the copy before it answers, since it ends right after. Which load ran is
 * read from the start-up trace (MINIRAG_TRACE_STARTUP=1).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WRITE_AFTER_IDLE_MS } from "../../src/embed/later-model-cache.ts";
import { tempDir, waitFor } from "../helpers.ts";
import { binaryEnv, killAll, mcpServer, run } from "./sync-procs.ts";

afterAll(killAll);

const root = tempDir("minirag-cache-later-");
writeFileSync(join(root, "pumps.md"), "# Pumps\n\nThe pumps run at night, when power is cheap.");
const base = binaryEnv([root], join(tempDir("minirag-cache-later-db-"), "lancedb"));

/** The optimised copies under a CACHE_DIR (optimized-model-cache.ts keeps them as .ort files). */
function copies(cacheDir: string): string[] {
  const folder = join(cacheDir, "optimized");
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ort"));
}

describe("the optimised model copy of a new CACHE_DIR", () => {
  test("a server answers from the model first and writes the copy once idle; a command writes it before answering", async () => {
    const serverCache = tempDir("minirag-cache-later-server-");
    const synced = await run(["sync"], { ...base, CACHE_DIR: tempDir("minirag-cache-later-sync-") });
    expect(synced.exitCode).toBe(0);

    const { client, call } = await mcpServer({ ...base, CACHE_DIR: serverCache });
    try {
      const answer = await call("query_documents", { query: "when do the pumps run" });
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent!.results[0].text).toContain("pumps run at night");
      expect(copies(serverCache)).toEqual([]);
      await waitFor(() => copies(serverCache).length === 1, WRITE_AFTER_IDLE_MS + 20_000, "the server's optimised model copy");
      expect((await call("query_documents", { query: "when do the pumps run" })).structuredContent!.results[0].text).toContain("pumps run at night");
    } finally {
      await client.close();
    }

    const commandCache = tempDir("minirag-cache-later-cli-");
    const query = await run(["query", "when do the pumps run"], { ...base, CACHE_DIR: commandCache, MINIRAG_TRACE_STARTUP: "1" });
    expect(query.exitCode).toBe(0);
    expect(query.stderr).toContain("session created from model, cache written");
    expect(copies(commandCache)).toHaveLength(1);
  }, 60_000);
});
