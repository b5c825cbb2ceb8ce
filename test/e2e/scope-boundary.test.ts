/**
 * The document roots as a boundary, on the compiled binary (issue 33, item 4).
 * list_files and `list --scope` walked any folder named as their scope:
 * {"scope": "/etc"} listed 1,037 files and "~/.ssh" listed id_rsa, names a
 * prompt-injected agent could send out through ingest_url. Here a fake home
 * with an .ssh folder and a folder beside the root stand in for them; each
 * path tool is driven with them over MCP (the SDK's Client over stdio) and
 * from the command line, and data ids and URL prefixes still scope.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { BINARY, TINY_MODEL, runCli, tempDir, writeTree } from "../helpers.ts";

type Result = { isError?: boolean; structuredContent?: Record<string, any>; content: { text: string }[] };

const parent = tempDir("minirag-boundary-");
const root = join(parent, "docs");
const outside = join(parent, "outside");
const home = join(parent, "home");
let env: Record<string, string>;
let client: Client;

const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
const cli = (args: string[], cwd = root) => runCli(args, { exe: [BINARY], cwd, env });
const listed = (r: Result) => (r.structuredContent!.files as { source: string }[]).map((f) => f.source);

/** The refusal every scope outside the roots gets: it names the scope, the roots and the fix. */
function expectRefusal(text: string, scope: string) {
  expect(text).toContain(`Scope ${scope} is outside the document roots (roots: ${root})`);
  expect(text).toContain("BASE_DIRS");
  expect(text).not.toContain("secret");
  expect(text).not.toContain("id_rsa");
}

beforeAll(async () => {
  writeTree(root, { "notes/plan.md": "# Plan\n\nShip the pump in March.", "readme.txt": "Read me." });
  writeTree(outside, { "secret.txt": "the outside secret", "deep/more.md": "more" });
  writeTree(home, { ".ssh/id_rsa.txt": "-----BEGIN KEY-----", ".ssh/config.md": "Host *" });
  symlinkSync(outside, join(root, "escape"));
  env = { BASE_DIR: root, MODEL_NAME: TINY_MODEL, HOME: home, PATH: process.env.PATH ?? "" };
  client = new Client({ name: "boundary", version: "0" });
  await client.connect(new StdioClientTransport({ command: BINARY, args: [], env, stderr: "pipe" }));
  await client.listTools();
  expect((await call("ingest_file", { filePath: join(root, "notes/plan.md") })).isError).toBeFalsy();
});
afterAll(async () => client?.close());

describe("list_files over MCP", () => {
  test("a folder outside the roots, the home folder's .ssh and a relative climb are refused, and nothing of theirs is named", async () => {
    for (const scope of [outside, "~/.ssh", "/etc", join(root, "../outside")]) {
      const r = await call("list_files", { scope });
      expect(r.isError).toBe(true);
      expectRefusal(r.content[0]!.text, scope);
    }
  });

  test("a symlink inside a root that leads out is refused, saying where it leads", async () => {
    const r = await call("list_files", { scope: join(root, "escape") });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain(`Scope ${join(root, "escape")} leads through a symlink to ${outside}, which is outside the document roots`);
  });

  test("/ covers the roots and nothing else", async () => {
    const everything = listed(await call("list_files"));
    // A link to a folder is a folder the walk never enters: neither it nor what it points at is listed.
    expect(everything).toEqual([join(root, "notes/plan.md"), join(root, "readme.txt")]);
    expect(listed(await call("list_files", { scope: "/" }))).toEqual(everything);
    expect(listed(await call("list_files", { scope: parent }))).toEqual(everything);
  });

  test("a folder inside a root still scopes the listing", async () => {
    expect(listed(await call("list_files", { scope: join(root, "notes") }))).toEqual([join(root, "notes/plan.md")]);
  });

  test("a data id prefix and a URL prefix still scope, and walk nothing", async () => {
    expect((await call("ingest_data", { content: "Minutes of the pump meeting.", source: "team/minutes-1" })).isError).toBeFalsy();
    expect(listed(await call("list_files", { scope: "team" }))).toEqual(["team/minutes-1"]);
    expect(listed(await call("list_files", { scope: "https://example.com/docs" }))).toEqual([]);
    // A relative name is an id prefix: nothing is walked from the server's working directory.
    expect(listed(await call("list_files", { scope: "../outside" }))).toEqual([]);
    const found = (await call("query_documents", { query: "pump", scope: "team" })).structuredContent!;
    expect(found.sources.map((s: { source: string }) => s.source)).toEqual(["team/minutes-1"]);
  });
});

describe("the other path tools over MCP", () => {
  test("ingest_data refuses an id that climbs out of a root, and nothing is stored", async () => {
    const r = await call("ingest_data", { content: "planted", source: "../outside/secret.txt" });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('Data id "../outside/secret.txt" has a "." or ".." part');
    expect(listed(await call("list_files"))).not.toContain("../outside/secret.txt");
  });

  test("sync_start, read_file, read_chunk_neighbors and delete_file refuse a path outside the roots", async () => {
    const secret = join(outside, "secret.txt");
    const texts = [
      (await call("sync_start", { path: outside })).content[0]!.text,
      (await call("read_file", { filePath: secret })).content[0]!.text,
      (await call("read_chunk_neighbors", { filePath: secret, chunkIndex: 0 })).content[0]!.text,
      (await call("delete_file", { filePath: secret })).content[0]!.text,
      (await call("ingest_file", { filePath: secret })).content[0]!.text,
    ];
    for (const text of texts) expect(text).toContain(`(roots: ${root})`);
    expect((await call("read_file", { filePath: join(root, "escape/secret.txt") })).content[0]!.text).toContain("outside the configured document roots");
  });
});

describe("the command line", () => {
  test("list --scope refuses a folder outside the roots, a relative climb and the home folder, exit 1", () => {
    for (const [scope, shown] of [[outside, outside], ["../outside", outside], [join(home, ".ssh"), join(home, ".ssh")]] as const) {
      const r = cli(["list", "--scope", scope]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      expectRefusal(r.stderr, shown);
    }
  });

  test("list --scope / lists the roots' files only; a folder inside a root and a data id still scope", () => {
    const everything = cli(["list"]).stdout;
    expect(everything).toContain("notes/plan.md");
    // A data id does not start with "/", so "/" covers every file and no data item (spec §2.8).
    expect(cli(["list", "--scope", "/"]).stdout).toBe(everything.replace("ingested     team/minutes-1\n", ""));
    expect(cli(["list", "--scope", "notes"]).stdout).toBe("ingested     notes/plan.md\n");
    expect(cli(["list", "--scope", "team"], parent).stdout).toBe("ingested     team/minutes-1\n");
    expect(cli(["list", "--scope", "https://example.com/docs"]).stdout).toBe("");
  });

  test("find and query take the same scopes; ingest-data refuses a climbing id", () => {
    expect(cli(["find", "pump", "--scope", "team"], parent).stdout).toContain("1 of 1 documents mention pump");
    const refused = cli(["ingest-data", "--source", "../outside/secret.txt", join(root, "readme.txt")]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('has a "." or ".." part');
  });
});
