import { describe, expect, test } from "bun:test";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { BUILTIN_INSTRUCTIONS, BUILTIN_LIMIT, CLIENT_LIMIT } from "../../src/mcp/instructions.ts";
import { tempDir } from "../helpers.ts";
import { call, connectInMemory } from "./mcp-client.ts";

describe("server instructions (case 58)", () => {
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
    const client = await connectInMemory({ configError: "x" }, append);
    expect(client.getInstructions()).toBe(expected);
  });

  test("a 346-character append keeps the total within the client's 2,048", async () => {
    const client = await connectInMemory({ configError: "x" }, "y".repeat(346));
    expect(client.getInstructions()!.length).toBeLessThanOrEqual(CLIENT_LIMIT);
  });
});

describe("the status tool", () => {
  test("answers with the configuration as structured content, and the same JSON as text", async () => {
    const root = tempDir();
    const client = await connectInMemory({ app: createApp(loadConfig({ env: { BASE_DIR: root } })) });
    const result = await call(client, "status");
    expect(result.isError).toBeFalsy();
    const s = result.structuredContent!;
    expect(s.roots).toEqual([root]);
    expect(s.chunkScheme).toBe(4);
    expect(s.chunkCount).toBe(0);
    expect(JSON.parse(result.content[0]!.text)).toEqual(s);
  });

  test("with a configuration error it answers {version, configError}", async () => {
    const client = await connectInMemory({ configError: 'Configuration error: BASE_DIRS="x" is invalid' });
    const result = await call(client, "status");
    expect(result.isError).toBeFalsy();
    expect(Object.keys(result.structuredContent!).sort()).toEqual(["configError", "version"]);
  });
});
