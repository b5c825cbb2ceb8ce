/** `minirag-mcp ingest-url` and `ingest-data` as subprocesses, against a real loopback server and a real index. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MAIN, TINY_MODEL, tempDir, writeTree } from "../helpers.ts";
import { respond, startServer, type Loopback } from "../url/loopback.ts";

const PAGE = "<html><head><title>Okapi field notes</title></head><body><article><h1>Okapi</h1><p>The okapi browses leaves in the Ituri forest at dusk, alone.</p><p>Its striped legs break up its outline among the trees.</p><p>Okapis were described to science only in 1901.</p></article></body></html>";

let site: Loopback;
let root: string;
let env: Record<string, string>;

/** Runs the CLI without blocking this process, so the server in it can answer. */
async function cli(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: root,
    env: { ...process.env, ...env, ...options.env } as Record<string, string>,
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, exitCode };
}

beforeAll(async () => {
  site = await startServer(respond(PAGE));
  root = tempDir("minirag-root-");
  env = { MODEL_NAME: TINY_MODEL, BASE_DIR: root, DB_PATH: join(tempDir("minirag-db-"), "lancedb") };
});

afterAll(async () => {
  await site.close();
});

describe("minirag-mcp ingest-url", () => {
  test("a loopback URL is refused without ALLOW_PRIVATE_URLS: exit 1, the host, the reason and the setting on stderr", async () => {
    const r = await cli(["ingest-url", `http://127.0.0.1:${site.port}/okapi`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Refusing to fetch from host 127.0.0.1: it is a loopback address");
    expect(r.stderr).toContain("ALLOW_PRIVATE_URLS=1");
    expect(site.hits).toEqual([]);
  });

  test("with ALLOW_PRIVATE_URLS=1 the page is indexed under --source with the <title>, and query finds it", async () => {
    const r = await cli(["ingest-url", `http://127.0.0.1:${site.port}/okapi`, "--source", "okapi-notes", "--json"], { env: { ALLOW_PRIVATE_URLS: "1" } });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ source: "okapi-notes", sourceType: "url", title: "Okapi field notes" });
    const q = await cli(["query", "okapi Ituri forest", "--json"]);
    expect(JSON.parse(q.stdout).sources[0]).toMatchObject({ source: "okapi-notes", displayPath: "okapi-notes" });
  });

  test("file: is refused even with ALLOW_PRIVATE_URLS=1", async () => {
    const r = await cli(["ingest-url", "file:///etc/passwd"], { env: { ALLOW_PRIVATE_URLS: "1" } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("only http and https URLs are fetched, not file:");
  });
});

describe("minirag-mcp ingest-data", () => {
  test("a file is indexed under --source, its format taken from its extension", async () => {
    writeTree(root, { "drafts/tapir.md": "# Tapir notes\n\nThe tapir swims across the river at night." });
    const r = await cli(["ingest-data", "--source", "tapir", "drafts/tapir.md", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: "tapir", sourceType: "data", title: "Tapir notes" });
  });

  test("standard input is read when no file is given, and --format and --title apply", async () => {
    const r = await cli(["ingest-data", "--source", "pangolin", "--format", "html", "--title", "Pangolin facts", "-"], { stdin: "<p>Pangolins roll into a ball.</p>" });
    expect(r.stdout).toContain("ingested pangolin (Pangolin facts)");
    const read = await cli(["read", "--source", "pangolin", "--json"]);
    expect(JSON.parse(read.stdout).text).toContain("Pangolins roll into a ball.");
  });

  test("a file that is not there is named with the fix, not as a bare ENOENT", async () => {
    const r = await cli(["ingest-data", "--source", "ghost", "drafts/nonexistent.txt"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`error: File does not exist: ${join(root, "drafts/nonexistent.txt")}\nCheck the path, or pass - to read standard input.\n`);
  });

  test("an id that could pass for a path is refused, naming the ids that are allowed", async () => {
    const r = await cli(["ingest-data", "--source", "/etc/passwd", "-"], { stdin: "x" });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("meeting-notes-2026-08-05");
  });
});
