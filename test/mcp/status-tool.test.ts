import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import type { ToolContext } from "../../src/mcp/context.ts";
import { BUILTIN_INSTRUCTIONS, BUILTIN_LIMIT, CLIENT_LIMIT } from "../../src/mcp/instructions.ts";
import { createServer } from "../../src/mcp/server.ts";
import { tempDir } from "../helpers.ts";

async function connect(ctx: ToolContext, append?: string): Promise<Client> {
  const server = createServer(ctx, append);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  // Listing first makes the client validate every result against the tool's outputSchema.
  await client.listTools();
  return client;
}

describe("server instructions", () => {
  test("the built-in text fits its budget and carries the citation phrases", () => {
    expect(BUILTIN_INSTRUCTIONS.length).toBeLessThan(BUILTIN_LIMIT);
    for (const phrase of ["so the user can verify it", "Sources list", "one line per document you actually used", "`displayPath` copied verbatim", "no [n] markers", "never a markdown link or file://"]) {
      expect(BUILTIN_INSTRUCTIONS).toContain(phrase);
    }
  });

  test.each([
    [undefined, BUILTIN_INSTRUCTIONS],
    ["X", `${BUILTIN_INSTRUCTIONS}\n\nX`],
    ["   ", BUILTIN_INSTRUCTIONS],
  ])("append %o is sent after a blank line", async (append, expected) => {
    const client = await connect({ configError: "x" }, append);
    expect(client.getInstructions()).toBe(expected);
  });

  test("a 346-character append keeps the total within the client's 2,048", async () => {
    const client = await connect({ configError: "x" }, "y".repeat(346));
    expect(client.getInstructions()!.length).toBeLessThanOrEqual(CLIENT_LIMIT);
  });
});

describe("the status tool", () => {
  test("answers with the configuration as structured content", async () => {
    const root = tempDir();
    const client = await connect({ app: createApp(loadConfig({ env: { BASE_DIR: root } })) });
    const result = await client.callTool({ name: "status", arguments: {} });
    expect(result.isError).toBeFalsy();
    const s = result.structuredContent as Record<string, unknown>;
    expect(s.roots).toEqual([root]);
    expect(s.chunkScheme).toBe(3);
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(s);
  });

  test("with a configuration error it answers {version, configError}", async () => {
    const client = await connect({ configError: "Configuration error: BASE_DIRS=\"x\" is invalid" });
    const result = await client.callTool({ name: "status", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(Object.keys(result.structuredContent!).sort()).toEqual(["configError", "version"]);
  });
});
