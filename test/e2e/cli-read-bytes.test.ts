/**
 * `minirag-mcp read FILE > copy` gives back the file's bytes: the CLI prints
 * the stored text as it is, adding no newline of its own when stdout is a pipe
 * (before, every read ended with one more newline than the document had).
 * The same text comes from `read --json` and from the MCP server's read_file.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { binaryEnv, killAll, mcpServer, run } from "./sync-procs.ts";

afterAll(killAll);

const root = tempDir("minirag-read-bytes-");
const env = binaryEnv([root], join(tempDir("minirag-read-bytes-db-"), "lancedb"));

const FILES: Record<string, string> = {
  "closing-newline.md": "# Tides\n\nThe pumps run at night.\n",
  "no-closing-newline.txt": "Harbour cranes are inspected every spring",
  "two-closing-newlines.md": "Первая строка.\n\n  Отступ сохранён.\n\n",
};

describe("CLI read through a pipe", () => {
  test("prints each document's bytes exactly, as read --json and read_file hold them", async () => {
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(root, name), text);
    expect((await run(["sync"], env)).exitCode).toBe(0);

    const { client, call } = await mcpServer(env);
    try {
      for (const [name, text] of Object.entries(FILES)) {
        const printed = await run(["read", join(root, name)], env);
        expect(printed.exitCode).toBe(0);
        expect(printed.stdout).toBe(text);
        const asJson = JSON.parse((await run(["read", join(root, name), "--json"], env)).stdout);
        expect(asJson.text).toBe(text);
        const served = await call("read_file", { filePath: join(root, name) });
        expect(served.structuredContent!.text).toBe(text);
      }
    } finally {
      await client.close();
    }
  });
});
