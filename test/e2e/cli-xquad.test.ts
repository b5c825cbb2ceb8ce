/**
 * The compiled binary as a user runs it, over 20 real xquad-en documents
 * committed under test/fixtures/xquad-en and the tiny model: ingest, sync,
 * query (shape, title-only identifier, scope), read round-trip, delete, and
 * bad input. scripts/accept/xquad-en.test.ts runs the binary over all 240.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BINARY, FIXTURES, TINY_MODEL, runCli, tempDir, writeTree } from "../helpers.ts";

const docs = join(FIXTURES, "xquad-en/docs");
const DOCS = readdirSync(docs).length;
let root: string;
let env: Record<string, string>;
const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { exe: [BINARY], cwd: root, env: { ...env, ...extra } });
const json = (args: string[], extra: Record<string, string> = {}) => {
  const r = cli([...args, "--json"], extra);
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
};

beforeAll(() => {
  root = tempDir("minirag-xquad-");
  cpSync(docs, root, { recursive: true });
  writeTree(root, { "ZX-4471_cooling.md": "# Introduction\n\nThe pumps run at night and the valves stay shut during the day." });
  env = { BASE_DIR: root, MODEL_NAME: TINY_MODEL };
});

describe("the binary over xquad-en documents", () => {
  test("ingests every document", () => {
    const r = json(["ingest", "."]);
    expect(r.ingested).toBe(DOCS + 1);
    expect(r.failed).toBe(0);
  }, 120_000);

  test("sync on the unchanged folder re-embeds nothing", () => {
    const r = json(["sync"]);
    expect(r.counts).toMatchObject({ scanned: DOCS + 1, ingested: 0, skipped: DOCS + 1, deleted: 0, failed: 0 });
  });

  test("query returns results, sources and parents with the reference's fields", () => {
    const r = json(["query", "oil embargo prices", "--top-k", "5"]);
    expect(r.results).toHaveLength(5);
    for (const hit of r.results) expect(Object.keys(hit).sort()).toEqual(["chunkIndex", "distance", "parentId", "score", "source", "text", "title"]);
    for (const s of r.sources) expect(Object.keys(s).sort()).toEqual(["displayPath", "hits", "source", "title"]);
    expect(r.sources[0].displayPath).toBe(r.sources[0].source.slice(root.length + 1));
    for (const hit of r.results) expect(typeof r.parents[hit.parentId]).toBe("string");
  });

  // The reference's rule for chunk vectors alone (case 47): document vectors, which read the title too, are off for it.
  test("an identifier only in a title is found at w = 0.6 and not at w = 0 without document vectors", () => {
    const hybrid = json(["query", "ZX-4471", "--top-k", "3"], { RAG_HYBRID_WEIGHT: "0.6" });
    expect(hybrid.results[0].source).toBe(join(root, "ZX-4471_cooling.md"));
    const vector = json(["query", "ZX-4471", "--top-k", "3"], { RAG_HYBRID_WEIGHT: "0", RAG_DOC_VECTORS: "false" });
    expect(vector.results.map((h: { source: string }) => h.source)).not.toContain(join(root, "ZX-4471_cooling.md"));
  });

  test("scope keeps results under the given paths only", () => {
    const scoped = json(["query", "the city", "--top-k", "20", "--scope", "Newcastle_upon_Tyne-p01.md", "--scope", join(root, "Pharmacy-p01.md")]);
    const sources = new Set(scoped.results.map((h: { source: string }) => h.source));
    expect([...sources].sort()).toEqual([join(root, "Newcastle_upon_Tyne-p01.md"), join(root, "Pharmacy-p01.md")]);
  });

  // Up to whitespace: a sentence longer than a chunk is cut where the budget ends.
  test("read returns every sentence of every original document", () => {
    const flat = (text: string) => text.replace(/\s+/g, " ");
    for (const file of readdirSync(docs)) {
      const read = flat(json(["read", file]).text);
      for (const sentence of readFileSync(join(docs, file), "utf8").split(/(?<=\.)\s+/).filter((s) => s.trim())) expect(read).toContain(flat(sentence.trim()));
    }
  });

  test("delete removes a document, and deleting it again is an error that says nothing was deleted", () => {
    const r = json(["delete", "Pharmacy-p02.md"]);
    expect(r.deletedChunks).toBeGreaterThan(0);
    const again = cli(["delete", "Pharmacy-p02.md"]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`${join(root, "Pharmacy-p02.md")} is not in the index; nothing was deleted.`);
    // The file is still on disk but not indexed: there is nothing to delete, and no call to ingest it.
    expect(again.stderr).not.toContain("ingest");
    expect(cli(["read", "Pharmacy-p02.md"]).exitCode).toBe(1);
  });

  test("bad input: an empty query, top-k 0, a path outside the roots", () => {
    const empty = cli(["query", ""]);
    expect(empty.exitCode).toBe(1);
    expect(empty.stderr).toContain("query must not be empty");
    expect(cli(["query", "x", "--top-k", "0"]).stderr).toContain("topK must be at least 1, got 0");
    const outside = cli(["read", "/etc/passwd"]);
    expect(outside.exitCode).toBe(1);
    expect(outside.stderr).toContain("Path outside configured document roots");
    expect(outside.stderr).toContain(root);
  });

  test("status counts what is indexed", () => {
    const s = json(["status"]);
    expect(s.sourceCount).toBe(DOCS);
    expect(s.staleChunkCount).toBe(0);
  });
});
