/**
 * Document vectors in search: the exhaustive nearest-document list
 * (store/document-vector-index.ts), its cache per table version, and the
 * third list's fusion (search/document-evidence.ts), whose keyword side keeps
 * its say.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DocumentVectorIndex, nearestDocuments, quantize, type DocumentVector, type NearDocument } from "../../src/store/document-vector-index.ts";
import { DOC_LIST, DOC_PARTIAL_WEIGHT, DOC_WEIGHT, KEYWORD_FOUND_DOC_WEIGHT, VECTOR_ONLY_DOC_WEIGHT, vectorOnlyWithDocuments, withDocumentEvidence } from "../../src/search/document-evidence.ts";
import { fuse, hitKey, RELATIVE_MIN_COVERAGE, vectorOnly } from "../../src/search/fusion.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { normalised } from "../../src/embed/unit-length.ts";
import { decodeDocumentVector } from "../../src/store/document-vectors.ts";
import { connect } from "@lancedb/lancedb";
import type { ChunkStore } from "../../src/store/chunk-store.ts";
import { FIXTURES, testApp, writeTree } from "../helpers.ts";

/** Pseudo-random unit-free vectors, the same on every run. */
function vectors(count: number, dims: number, seed = 7): Float32Array[] {
  let a = seed;
  const next = () => ((a = (a * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, next));
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
};

describe("the nearest documents", () => {
  test("are those nearest by cosine, best first, from vectors held in 8 bits", () => {
    const all = vectors(600, 384);
    // Stored document vectors are unit length; the query need not be.
    const docs: DocumentVector[] = all.map((v, i) => ({ source: `/d/${i}.md`, ...quantize(normalised(v)) }));
    const [query] = vectors(1, 384, 99);
    const exact = all.map((v, i) => ({ source: docs[i]!.source, cos: cosine(v, query!) })).sort((a, b) => b.cos - a.cos);
    const found = nearestDocuments(docs, query!, DOC_LIST);
    expect(found.length).toBe(DOC_LIST);
    // Best first, each cosine within 0.01 of the exact one, and the list the exact list but for near ties at its end.
    found.forEach((n, i) => i > 0 && expect(n.cos).toBeLessThanOrEqual(found[i - 1]!.cos));
    const exactCos = new Map(exact.map((e) => [e.source, e.cos]));
    for (const n of found) expect(Math.abs(n.cos - exactCos.get(n.doc.source)!)).toBeLessThan(0.01);
    const top = new Set(exact.slice(0, DOC_LIST).map((e) => e.source));
    expect(found.filter((n) => top.has(n.doc.source)).length).toBeGreaterThanOrEqual(DOC_LIST - 3);
    expect(found[0]!.doc.source).toBe(exact[0]!.source);
    expect(nearestDocuments(docs, query!, 3).length).toBe(3);
    expect(nearestDocuments([], query!, 3)).toEqual([]);
  });
});

type Hit = { source: string; chunk_index: number; parent_id: string | null; distance: number | null; _score?: number };
const hit = (source: string, chunk: number, distance: number | null, score?: number): Hit => ({ source, chunk_index: chunk, parent_id: null, distance, ...(score !== undefined && { _score: score }) });
const near = (source: string, cos: number): NearDocument => ({ doc: { source, vector: new Int8Array(1), scale: 1 }, cos });

describe("fusing the document list", () => {
  const relative = { rule: "relative" as const, coverage: 1, weight: 0.6 };

  test("with no list, or at keyword weight 1, it is the two sides' fusion unchanged", () => {
    const vector = [hit("a", 0, 0.2), hit("b", 1, 0.5)];
    const keyword = [hit("b", 1, null, 3), hit("c", 0, null, 1)];
    expect(withDocumentEvidence(vector, keyword, [], relative)).toEqual(fuse("relative", vector, keyword, 0.6, 1));
    expect(withDocumentEvidence(vector, keyword, [near("a", 0.9)], { ...relative, weight: 1 })).toEqual(fuse("relative", vector, keyword, 1, 1));
  });

  test("of two documents level on their chunks, the one nearer by its own vector ranks first", () => {
    const vector = [hit("a", 3, 0.4), hit("b", 2, 0.4), hit("z", 0, 0.9)];
    const keyword = [hit("a", 3, null, 2), hit("b", 2, null, 2), hit("z", 0, null, 1)];
    const plain = fuse("relative", vector, keyword, 0.6, 1);
    expect(plain.map((f) => f.item.source).slice(0, 2)).toEqual(["a", "b"]);
    const fused = withDocumentEvidence(vector, keyword, [near("b", 0.9), near("a", 0.5), near("z", 0.1)], relative);
    expect(fused.map((f) => f.item.source)).toEqual(["b", "a", "z"]);
  });

  test("a chunk that matched every query word still outranks a document first on the vector side and the list but not found by keywords", () => {
    // The keyword side's best hit is the vector side's last; "v" leads both vector lists.
    const vector = [hit("v", 0, 0.1), ...Array.from({ length: 20 }, (_, i) => hit(`o${i}`, 0, 0.5 + i / 100)), hit("k", 0, 1.9)];
    const keyword = [hit("k", 0, null, 9), hit("x", 0, null, 1)];
    const list = [near("v", 0.95), ...Array.from({ length: 20 }, (_, i) => near(`o${i}`, 0.6 - i / 100)), near("k", 0.05)];
    expect(withDocumentEvidence(vector, keyword, list, relative)[0]!.item.source).toBe("k");
    expect(withDocumentEvidence(vector, keyword, list, { ...relative, rule: "rrf" })[0]!.item.source).toBe("k");
  });

  test("a listed document's part is g (1 - w) times its place in the list: for a chunk found by vectors alone g = DOC_WEIGHT where every query word matched, DOC_PARTIAL_WEIGHT where some did", () => {
    const vector = [hit("a", 0, 0.2), hit("b", 0, 0.5)];
    const keyword = [hit("c", 0, null, 3)];
    const list = [near("a", 0.9), near("b", 0.1)];
    for (const [coverage, g] of [[1, DOC_WEIGHT], [0.75, DOC_PARTIAL_WEIGHT], [RELATIVE_MIN_COVERAGE, DOC_PARTIAL_WEIGHT]] as const) {
      const plain = new Map(fuse("relative", vector, keyword, 0.6, coverage).map((f) => [f.item.source, f.score]));
      const fused = new Map(withDocumentEvidence(vector, keyword, list, { ...relative, coverage }).map((f) => [f.item.source, f.score]));
      // "a" is first in the list (rescaled to 1), "b" last (the floor, 0.01); "c" is not listed.
      expect(fused.get("a")! - plain.get("a")!).toBeCloseTo(g * 0.4, 12);
      expect(fused.get("b")! - plain.get("b")!).toBeCloseTo(g * 0.4 * 0.01, 12);
      expect(fused.get("c")).toBe(plain.get("c")!);
    }
    expect(DOC_WEIGHT).toBeLessThan(0.5);
  });

  test("a chunk the keyword side found gains KEYWORD_FOUND_DOC_WEIGHT of its document's part at any coverage relative fusion ranks at; the same document's chunk found by vectors alone keeps g", () => {
    const vector = [hit("a", 0, 0.2), hit("a", 1, 0.3), hit("b", 0, 0.5)];
    const keyword = [hit("a", 1, null, 3), hit("b", 0, null, 1)];
    const list = [near("a", 0.9), near("b", 0.1)];
    for (const [coverage, g] of [[1, DOC_WEIGHT], [0.75, DOC_PARTIAL_WEIGHT]] as const) {
      const score = (fused: { item: Hit; score: number }[]) => new Map(fused.map((f) => [hitKey(f.item), f.score]));
      const plain = score(fuse("relative", vector, keyword, 0.6, coverage));
      const fused = score(withDocumentEvidence(vector, keyword, list, { ...relative, coverage }));
      expect(fused.get("1 a")! - plain.get("1 a")!).toBeCloseTo(KEYWORD_FOUND_DOC_WEIGHT * 0.4, 12);
      expect(fused.get("0 a")! - plain.get("0 a")!).toBeCloseTo(g * 0.4, 12);
      expect(fused.get("0 b")! - plain.get("0 b")!).toBeCloseTo(KEYWORD_FOUND_DOC_WEIGHT * 0.4 * 0.01, 12);
    }
    expect(KEYWORD_FOUND_DOC_WEIGHT).toBeGreaterThan(DOC_PARTIAL_WEIGHT);
  });

  test("with RAG_FUSION=rrf the part goes by rank, with DOC_WEIGHT wherever half the query's words or more matched", () => {
    const vector = [hit("a", 0, 0.2), hit("b", 0, 0.5)];
    const keyword = [hit("b", 0, null, 3), hit("a", 0, null, 1)];
    const list = [near("a", 0.9), near("b", 0.1)];
    for (const coverage of [1, 0.75]) {
      const plain = new Map(fuse("rrf", vector, keyword, 0.6, coverage).map((f) => [f.item.source, f.score]));
      const fused = new Map(withDocumentEvidence(vector, keyword, list, { rule: "rrf", coverage, weight: 0.6 }).map((f) => [f.item.source, f.score]));
      expect(fused.get("a")! - plain.get("a")!).toBeCloseTo((DOC_WEIGHT * 0.4) / 61, 12);
      expect(fused.get("b")! - plain.get("b")!).toBeCloseTo((DOC_WEIGHT * 0.4) / 62, 12);
    }
  });

  test("below half keyword coverage it goes by ranks, as fusion does: a cross-lingual question's list lifts the document it ranks first", () => {
    // The keyword side matched a stray number in "a"; the list ranks "b" first and "a" 32nd.
    const vector = [hit("b", 0, 0.5), hit("a", 0, 0.51)];
    const keyword = [hit("a", 0, null, 5)];
    const lowCoverage = { rule: "relative" as const, coverage: RELATIVE_MIN_COVERAGE / 2, weight: 0.6 };
    expect(fuse("relative", vector, keyword, 0.6, lowCoverage.coverage)[0]!.item.source).toBe("a");
    const list = [near("b", 0.9), ...Array.from({ length: 30 }, (_, i) => near(`o${i}`, 0.8 - i / 100)), near("a", 0.2)];
    const fused = withDocumentEvidence(vector, keyword, list, lowCoverage);
    expect(fused.slice(0, 2).map((f) => f.item.source)).toEqual(["b", "a"]);
  });
});

describe("vector-only ranking with the document list", () => {
  test("with no list it is vector-only ranking unchanged", () => {
    const vector = [hit("a", 0, 0.2), hit("b", 1, 0.5)];
    expect(vectorOnlyWithDocuments(vector, [])).toEqual(vectorOnly(vector));
  });

  test("each chunk's score is its own plus its document's, both 1 / (1 + squared distance), and the nearer document wins a tie on chunks", () => {
    const vector = [hit("a", 0, 0.4), hit("b", 2, 0.4), hit("b", 0, 0.8)];
    const fused = vectorOnlyWithDocuments(vector, [near("b", 0.9), near("a", 0.8)]);
    expect(fused.map((f) => [f.item.source, f.item.chunk_index])).toEqual([["b", 2], ["a", 0], ["b", 0]]);
    // A unit vector's squared distance is 2 - 2 cos; the distance shown is the chunk's own.
    expect(fused[0]!.score).toBeCloseTo(1 / 1.4 + VECTOR_ONLY_DOC_WEIGHT / (1 + (2 - 2 * 0.9)), 12);
    expect(fused[0]!.distance).toBe(0.4);
    expect(fused[1]!.score).toBeCloseTo(1 / 1.4 + VECTOR_ONLY_DOC_WEIGHT / 1.4, 12);
  });

  test("a document the list does not hold keeps its chunks' own scores", () => {
    const fused = vectorOnlyWithDocuments([hit("a", 0, 0.1), hit("z", 0, 0.2)], [near("a", 0.1)]);
    expect(fused.find((f) => f.item.source === "z")!.score).toBe(1 / 1.2);
  });
});

/** Each read of document vectors from now on, by the sources it asked for ("all": one scan). */
function recordVectorReads(store: ChunkStore): string[][] {
  const asked: string[][] = [];
  const read = store.documentVectors.bind(store);
  store.documentVectors = (sources) => {
    asked.push(sources === "all" ? ["all"] : [...sources].sort());
    return read(sources);
  };
  return asked;
}

describe("document vectors in the index", () => {
  test("are read once per version (the first time all at once), and after a write only the changed document's vector is read again", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nAlpha notes on pumps.\n", "b.md": "# B\n\nBravo notes on valves.\n", "c.md": "# C\n\nCharlie notes on rivers.\n" });
    await runSync(app);
    const index = new DocumentVectorIndex();
    const store = app.store;
    const asked = recordVectorReads(store);
    expect((await index.at(store)).size).toBe(3);
    expect((await index.at(store)).size).toBe(3);
    // The first read takes every vector in one scan.
    expect(asked).toEqual([["all"]]);

    writeTree(root, { "b.md": "# B\n\nBravo notes on valves and gauges.\n" });
    await runSync(app);
    const after = await index.at(store);
    expect(after.size).toBe(3);
    expect(asked[1]).toEqual([join(root, "b.md")]);
  });

  test("a document without a vector is read again at each version until it has one: a vector filled in later, its key unchanged, is listed", async () => {
    const { app, root } = await testApp();
    // Six documents: two changed of six are read by name, not in the one scan a first read (most changed) takes.
    writeTree(root, Object.fromEntries(["a", "b", "c", "d", "e", "f"].map((n) => [`${n}.md`, `# ${n}\n\nNotes on pump ${n}.\n`])));
    await runSync(app);
    const [a, c] = [join(root, "a.md"), join(root, "c.md")];
    const others = ["b", "d", "e", "f"].map((n) => join(root, `${n}.md`));
    const table = await (await connect(app.config.dbPath)).openTable("chunks");
    const stored = ((await table.query().where(`source = '${a}' AND chunk_index = 0`).select(["doc_vector"]).toArray())[0] as { doc_vector: string }).doc_vector;
    // As a document stored in keyword-only mode has it: no vector on its chunk 0, which a sync fills later with the key as it was.
    await table.update({ where: `source = '${a}'`, valuesSql: { doc_vector: "CAST(NULL AS STRING)" } });
    const index = new DocumentVectorIndex();
    const store = app.store;
    const asked = recordVectorReads(store);
    const listed = async () => [...(await index.at(store)).keys()].sort();
    const touch = (source: string) => table.update({ where: `source = '${source}' AND chunk_index = 0`, values: { ingested_at: new Date().toISOString() } });
    const all = [a, c, ...others].sort();
    expect(await listed()).toEqual(all.filter((s) => s !== a));
    expect(asked).toEqual([["all"]]);
    await touch(c);
    expect(await listed()).toEqual(all.filter((s) => s !== a));
    expect(asked.at(-1)).toEqual([a, c]);
    await table.update({ where: `source = '${a}' AND chunk_index = 0`, values: { doc_vector: stored } });
    expect(await listed()).toEqual(all);
    expect(asked.at(-1)).toEqual([a]);
    // Held now: another document's write reads that one alone.
    await touch(c);
    expect(await listed()).toEqual(all);
    expect(asked.at(-1)).toEqual([c]);
  });

  test("a deleted document leaves the list, and a moved one is listed at its new path", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nAlpha notes on pumps.\n", "b.md": "# B\n\nBravo notes on valves.\n" });
    await runSync(app);
    const index = new DocumentVectorIndex();
    expect([...(await index.at(app.store)).keys()].sort()).toEqual([join(root, "a.md"), join(root, "b.md")]);
    rmSync(join(root, "a.md"));
    mkdirSync(join(root, "moved"));
    renameSync(join(root, "b.md"), join(root, "moved", "b.md"));
    expect((await runSync(app)).counts).toMatchObject({ moved: 1, deleted: 1 });
    expect([...(await index.at(app.store)).keys()]).toEqual([join(root, "moved", "b.md")]);
  });

  test("a new process reads only its candidates' document vectors and ranks as one holding every document's: the whole set is read only once built before (a server)", async () => {
    const { app, root } = await testApp();
    writeTree(root, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`doc-${i}.md`, `# Note ${i}\n\n${i % 3 ? "Pumps move coolant" : "Valves hold pressure"} in loop ${i}, checked weekly.\n`])));
    await runSync(app);
    const questions = [{ query: "pumps moving coolant", topK: 5 }, { query: "pressure valves", topK: 5 }, { query: "loop 7", topK: 5, hybridWeight: 0 }];
    const fresh = (await testApp({ DB_PATH: app.config.dbPath }, [root])).app;
    const cold = [];
    for (const q of questions) cold.push(await queryDocuments(fresh, q));
    // Nothing read every document's vector in the process that never built the set.
    expect(fresh.documentVectors.version()).toBeUndefined();
    const served = (await testApp({ DB_PATH: app.config.dbPath }, [root])).app;
    await served.documentVectors.at(await served.store.snapshot());
    for (const [i, q] of questions.entries()) {
      const warm = await queryDocuments(served, q);
      expect(warm.results.map((h) => [h.source, h.chunkIndex, h.score])).toEqual(cold[i]!.results.map((h) => [h.source, h.chunkIndex, h.score]));
    }
    // The document part is there: the same questions without it score otherwise.
    const without = await queryDocuments(fresh, { ...questions[0]!, documentVectors: false });
    expect(without.results.map((h) => h.score)).not.toEqual(cold[0]!.results.map((h) => h.score));
  });

  test("a value that is not a vector is left out, and a list that cannot be read leaves the answer to the two sides, said in the log", async () => {
    expect(decodeDocumentVector("AAAAAA==")).toEqual(new Float32Array(1)); // four bytes
    expect(decodeDocumentVector("AAAA")).toBeNull(); // three
    expect(decodeDocumentVector("AAA")).toBeNull(); // two bytes
    expect(decodeDocumentVector("")).toBeNull();
    const { app, root, logs } = await testApp();
    writeTree(root, { "a.md": "# A\n\nAlpha notes on pumps.\n", "b.md": "# B\n\nBravo notes on valves.\n" });
    await runSync(app);
    const query = { query: "pumps", topK: 5 };
    const without = await queryDocuments(app, { ...query, documentVectors: false });
    app.documentVectors.of = async () => {
      throw new Error("disk read failed");
    };
    const answer = await queryDocuments(app, query);
    expect(answer.results.map((h) => [h.source, h.chunkIndex, h.score])).toEqual(without.results.map((h) => [h.source, h.chunkIndex, h.score]));
    expect(logs.some((l) => l.includes("document vectors could not be read, ranking without them: disk read failed"))).toBe(true);
  });

  test("vector-only queries (keyword weight 0) add each document's part to its chunks, and RAG_DOC_VECTORS off leaves their scores as they were", async () => {
    const { app, root } = await testApp();
    const handbook = readFileSync(join(FIXTURES, "chunk/warehouse-handbook.md"), "utf8");
    writeTree(root, { "handbook.md": handbook, "notes.md": "# Notes\n\nShelves and pallets.\n" });
    await runSync(app);
    const query = { query: "how high are pallets stacked", topK: 20, hybridWeight: 0 };
    const plain = await queryDocuments(app, { ...query, documentVectors: false });
    const listed = await queryDocuments(app, query);
    expect(plain.results.length).toBeGreaterThan(1);
    // Without the list a chunk scores 1 / (1 + its distance); with it, more by its document's part, 1 / (3 - 2 cos), in [1/5, 1].
    for (const r of plain.results) expect(r.score).toBeCloseTo(1 / (1 + r.distance!), 6);
    const plainScore = new Map(plain.results.map((r) => [`${r.source} ${r.chunkIndex}`, r.score]));
    for (const r of listed.results) {
      const part = r.score - plainScore.get(`${r.source} ${r.chunkIndex}`)!;
      expect(part).toBeGreaterThanOrEqual(VECTOR_ONLY_DOC_WEIGHT / 5 - 1e-6);
      expect(part).toBeLessThanOrEqual(VECTOR_ONLY_DOC_WEIGHT + 1e-6);
    }
    // Every chunk of one document gets the same part.
    const parts = listed.results.filter((r) => r.source === join(root, "handbook.md")).map((r) => r.score - plainScore.get(`${r.source} ${r.chunkIndex}`)!);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p).toBeCloseTo(parts[0]!, 6);
  });

  test("a query over a scope lists only the scope's documents, and the answer's chunks stay inside it", async () => {
    const { app, root } = await testApp();
    const handbook = readFileSync(join(FIXTURES, "chunk/warehouse-handbook.md"), "utf8");
    writeTree(root, { "kept/handbook.md": handbook, "other/handbook.md": handbook, "other/notes.md": "# Notes\n\nShelves and pallets.\n" });
    await runSync(app);
    await ingestData(app, { source: "memo", content: "Pallets are stacked two high at most." });
    const scope = [join(root, "kept")];
    const r = await queryDocuments(app, { query: "how high are pallets stacked", topK: 20, scope });
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((h) => h.source.startsWith(`${scope[0]}/`))).toBe(true);
    const all = await queryDocuments(app, { query: "how high are pallets stacked", topK: 100 });
    expect(new Set(all.results.map((h) => h.source)).size).toBe(4);
  });
});
