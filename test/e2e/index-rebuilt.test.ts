/**
 * The index folder deleted and built again by a CLI sync while an MCP server
 * that read it keeps running (the compiled binary): the server answers from
 * the new index, though its versions and row count are the old one's. Before,
 * LanceDB's handle read the old table's manifests (a raw "Not found" for the
 * deleted data files) and find_mentions kept the old text.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { binaryEnv, killAll, mcpServer, run, versionedDoc, type ToolResult } from "./sync-procs.ts";

afterAll(killAll);

describe("an index folder deleted and synced anew under a running server", () => {
  test("the server's searches, counts and reads answer from the new index, with no raw error", async () => {
    const tree = tempDir("minirag-rebuilt-tree-");
    const names = ["alpha", "beta", "gamma"];
    for (const name of names) writeFileSync(join(tree, `${name}.md`), versionedDoc(name, 1));
    const dbPath = join(tempDir("minirag-rebuilt-db-"), "lancedb");
    const env = binaryEnv([tree], dbPath);
    expect((await run(["sync"], env)).exitCode).toBe(0);
    const server = await mcpServer(env);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result: ToolResult = await server.call(name, args);
        expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
        return result.structuredContent!;
      };
      expect((await call("find_mentions", { terms: ["harbour"] })).matchedDocuments).toBe(3);
      expect((await call("query_documents", { query: "harbour crane" })).results[0].text).toContain("harbour");

      rmSync(dbPath, { recursive: true });
      // The same shape of text (one word for another of the same length): the same chunks, versions and row count.
      for (const name of names) writeFileSync(join(tree, `${name}.md`), versionedDoc(name, 1).replaceAll("harbour", "meadow "));
      expect((await run(["sync"], env)).exitCode).toBe(0);

      expect((await call("find_mentions", { terms: ["harbour"] })).matchedDocuments).toBe(0);
      expect((await call("find_mentions", { terms: ["meadow"] })).matchedDocuments).toBe(3);
      expect((await call("query_documents", { query: "meadow crane" })).results[0].text).toContain("meadow");
      expect((await call("read_file", { source: join(tree, "alpha.md") })).text).toContain("the meadow  crane");
      expect((await call("status", {})).chunkCount).toBe((await call("list_files", {})).files.reduce((n: number, f: { chunkCount?: number }) => n + (f.chunkCount ?? 0), 0));
    } finally {
      await server.client.close();
    }
  }, 120_000);
});
