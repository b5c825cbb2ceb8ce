import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import type { Embedder } from "../../src/embed/embedder.ts";
import type { ChunkRow } from "../../src/store/chunk-row.ts";
import { failure, testApp, writeTree } from "../helpers.ts";

let app: App;
let root: string;

beforeAll(async () => {
  ({ app, root } = await testApp());
  const rules = Array.from({ length: 40 }, (_, i) => `Rule ${i}: a request must carry a valid token number ${i}.`).join("\n\n");
  writeTree(root, {
    "recipes/pancakes.md": "# Pancakes\n\nMix flour, milk and eggs. Fry in butter until golden.",
    "errors/network.md": "# Network errors\n\nWhen the browser shows ERR_CONNECTION_REFUSED the server is not listening on that port.",
    "ZX-4471_cooling.md": "# Introduction\n\nThe pumps run at night and the valves stay shut during the day.",
    "policy/rules.md": `# Policy\n\nIntro.\n\n## Rules\n\n${rules}`,
    "proj/a.md": "project notes about apples",
    "project-secret/a.md": "secret notes about apples",
  });
  await runSync(app);
});


// The topK cap, keyword-only hits and the keyword-failure fallback need an index past the caps: large-index.test.ts.
describe("query validation (case 49)", () => {
  test.each([
    ["", 5, "query must not be empty"],
    ["   ", 5, "query must not be empty"],
    ["x", 0, "topK must be at least 1, got 0"],
    ["x", -5, "topK must be at least 1, got -5"],
  ])("%o topK %d -> %s", async (query, topK, message) => {
    expect((await failure(queryDocuments(app, { query, topK }))).message).toBe(message);
  });
});

describe("hybrid ranking", () => {
  test("an exact identifier is first at w = 1 (case 44)", async () => {
    const r = await queryDocuments(app, { query: "ERR_CONNECTION_REFUSED", topK: 3, hybridWeight: 1 });
    expect(r.results[0]!.source).toBe(join(root, "errors/network.md"));
  });

  // Cases 47 and the w = 0 score are the reference's rules for chunk vectors alone: here with RAG_DOC_VECTORS=false.
  // With document vectors, w = 0 adds each document's part (search/document-evidence.test.ts).
  test("a term only in a title is found at w = 0.6 and not at w = 0 without document vectors (case 47)", async () => {
    const hybrid = await queryDocuments(app, { query: "ZX-4471", topK: 1, hybridWeight: 0.6 });
    expect(hybrid.results[0]!.source).toBe(join(root, "ZX-4471_cooling.md"));
    expect(hybrid.results[0]!.title).toBe("ZX-4471 cooling");
    const vector = await queryDocuments(app, { query: "ZX-4471", topK: 1, hybridWeight: 0, documentVectors: false });
    expect(vector.results[0]!.source).not.toBe(join(root, "ZX-4471_cooling.md"));
  });

  test("at w = 0 without document vectors scores are 1 / (1 + distance)", async () => {
    const r = await queryDocuments(app, { query: "apples", topK: 3, hybridWeight: 0, documentVectors: false });
    expect(r.results).toHaveLength(3);
    for (const hit of r.results) expect(hit.score).toBeCloseTo(1 / (1 + hit.distance!), 9);
  });
});

describe("response shape", () => {
  test("results, sources with displayPath in rank order, and each parent once (case 51)", async () => {
    const r = await queryDocuments(app, { query: "request token rule", topK: 10, hybridWeight: 1 });
    const ruleHits = r.results.filter((h) => h.source.endsWith("rules.md"));
    expect(ruleHits.length).toBeGreaterThan(1);
    const parentIds = new Set(ruleHits.map((h) => h.parentId));
    for (const id of parentIds) {
      expect(Object.keys(r.parents)).toContain(id!);
    }
    for (const h of ruleHits) expect(r.parents[h.parentId!]).toContain(h.text.split("\n\n").pop()!.trim());
    // A section reads as the document's own text: its heading once, no breadcrumb.
    expect(r.parents[ruleHits[0]!.parentId!]!.match(/## Rules/g)).toHaveLength(1);
    expect(r.parents[ruleHits[0]!.parentId!]).not.toContain("Policy > Rules");
    const rules = r.sources.find((s) => s.source.endsWith("rules.md"))!;
    expect(rules).toEqual({ source: join(root, "policy/rules.md"), title: "Policy", hits: ruleHits.length, displayPath: "policy/rules.md" });
    expect(r.sources.map((s) => s.source)).toEqual([...new Set(r.results.map((h) => h.source))]);
  });
});

describe("shown rows", () => {
  test("hits without a section (rows from before sections) show their own text, title and pages, not their neighbours'", async () => {
    const { app: old } = await testApp();
    const embedder = (await old.embedderOrNone()) as Embedder;
    const docs = {
      "/old/manual.pdf": ["The boiler manual says to bleed the radiators every autumn.", "Unrelated notes about gardening tools."],
      "/old/notes.pdf": ["The lawn mower needs new blades.", "Cold radiators upstairs mean air in the pipes."],
    };
    for (const [source, texts] of Object.entries(docs)) {
      const vectors = await embedder.embed(texts);
      const title = source === "/old/manual.pdf" ? "Boiler manual" : "House notes";
      const rows: ChunkRow[] = texts.map((text, i) => ({
        id: `${source}#${i}`, source, source_type: "file", title, chunk_index: i, parent_id: null, text, vector: vectors[i]!,
        scheme: 3, content_hash: "h", mtime: 0, file_size: 100, ingested_at: "2026-11-29T00:00:00Z", ocr_engine: "", pages: String(i + 3),
      }));
      await old.store.replaceSources([source], rows, embedder.dimensions);
    }
    // The two keyword hits are chunk 0 of one file and chunk 1 of the other; the rows read also brings the other two.
    const r = await queryDocuments(old, { query: "radiators", topK: 2, hybridWeight: 1 });
    expect(r.results.map((h) => [h.source, h.chunkIndex, h.text, h.title, h.pages, h.parentId]).sort()).toEqual([
      ["/old/manual.pdf", 0, docs["/old/manual.pdf"][0], "Boiler manual", "3", null],
      ["/old/notes.pdf", 1, docs["/old/notes.pdf"][1], "House notes", "4", null],
    ]);
    expect(r.parents).toEqual({});
    expect(r.sources.map((s) => [s.source, s.title, s.hits]).sort()).toEqual([
      ["/old/manual.pdf", "Boiler manual", 1],
      ["/old/notes.pdf", "House notes", 1],
    ]);
  });

  test("an index from before the pages and context columns still shows hits and their sections", async () => {
    const { app: before, root } = await testApp();
    writeTree(root, { "guide.md": "# Guide\n\n## Valves\n\nTurn the red valve clockwise to close the loop.\n\n## Pumps\n\nThe pumps run at night." });
    await runSync(before);
    await (await before.store.open())!.dropColumns(["pages", "context_lines"]);
    const { app } = await testApp({ DB_PATH: before.config.dbPath }, [root]);
    const r = await queryDocuments(app, { query: "red valve clockwise", topK: 1, hybridWeight: 1 });
    expect(r.results[0]!.text).toContain("Turn the red valve clockwise");
    expect(r.results[0]!.pages).toBeUndefined();
    expect(r.parents[r.results[0]!.parentId!]).toContain("Turn the red valve clockwise");
  });
});

describe("scope", () => {
  test("matches at path separators and ORs several scopes", async () => {
    const one = await queryDocuments(app, { query: "apples notes", topK: 20, scope: [join(root, "proj")] });
    expect(new Set(one.results.map((h) => h.source))).toEqual(new Set([join(root, "proj/a.md")]));
    const two = await queryDocuments(app, { query: "apples notes", topK: 20, scope: [join(root, "proj"), join(root, "project-secret")] });
    expect(new Set(two.results.map((h) => h.source)).size).toBe(2);
  });

  test("the scope / covers every file (§2.8)", async () => {
    const all = await queryDocuments(app, { query: "apples notes", topK: 100 });
    const rooted = await queryDocuments(app, { query: "apples notes", topK: 100, scope: ["/"] });
    expect(rooted.results.length).toBeGreaterThan(0);
    expect(rooted.results.map((h) => h.source)).toEqual(all.results.map((h) => h.source));
  });

  test("a scope that excludes everything comes back with a notice", async () => {
    const r = await queryDocuments(app, { query: "apples", scope: ["/nowhere"] });
    expect(r.results).toEqual([]);
    expect(r.notice).toContain("No indexed documents under scope /nowhere");
  });
});

describe("empty index", () => {
  test("answers with a notice that says to sync", async () => {
    const { app: empty } = await testApp();
    const r = await queryDocuments(empty, { query: "anything" });
    expect(r.results).toEqual([]);
    expect(r.notice).toContain("sync");
  });

  test("data sources are searchable and cited by their id", async () => {
    const { app: fresh } = await testApp();
    await ingestData(fresh, { content: "<html><head><title>Release notes</title></head><body><p>Version 7 adds zebra mode.</p></body></html>", source: "release-notes", format: "html" });
    const r = await queryDocuments(fresh, { query: "zebra", hybridWeight: 1 });
    expect(r.sources[0]).toEqual({ source: "release-notes", title: "Release notes", hits: 1, displayPath: "release-notes" });
  });
});

describe("an index that does not exist yet", () => {
  test("answers with the notice without loading the model", async () => {
    const { app: fresh } = await testApp({ MODEL_NAME: "/nonexistent/model/folder" });
    const r = await queryDocuments(fresh, { query: "anything" });
    expect(r.notice).toContain("index is empty");
  });
});
