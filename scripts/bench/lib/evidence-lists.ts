/**
 * The candidate lists of document-evidence.ts, collected once per question
 * from an index the product built: the vector side's and the keyword side's
 * chunk hits exactly as query_documents asks for them (store.vectorSearch
 * and store.keywordSearch at its candidate count for topK 100), the keyword
 * coverage, and each document's cosine to the query under two document
 * vectors: its opening (the start of its text, up to the model's 512 tokens,
 * embedded as a passage) and the mean of its stored chunk vectors. Rules are
 * then scored over the same lists, so they differ by the rule alone.
 */
import { readFileSync } from "node:fs";
import type { App } from "../../../src/app.ts";
import type { Embedder } from "../../../src/embed/embedder.ts";
import { keywordCoverage } from "../../../src/search/keyword-coverage.ts";
import { MAX_TOP_K, MIN_CANDIDATES } from "../../../src/search/query-documents.ts";
import { storedVectorsFor } from "../../../src/store/stored-vectors.ts";
import { normalised } from "../../../src/embed/unit-length.ts";

/** query_documents' candidates per side at topK 100 (the quality section's setting). */
export const CANDIDATES = Math.max(4 * MAX_TOP_K, MIN_CANDIDATES);
/** Characters of a document handed to the tokenizer for its opening: well past 512 tokens of any language, so the tokenizer's own cut decides. */
const OPENING_CHARS = 6000;

export interface ChunkHit {
  doc: number;
  chunk: number;
  /** Squared L2 distance (vector side) or BM25 (keyword side). */
  value: number;
}

export interface QuestionLists {
  id: string;
  vector: ChunkHit[];
  keyword: ChunkHit[];
  coverage: number;
  /** Cosine of the query to each document's opening vector, by document number. */
  opening: number[];
  /** Cosine of the query to each document's mean chunk vector, by document number. */
  meanChunk: number[];
  /** Cosine to each document's joined opening: its chunk texts in order, joined, cut at 512 tokens (absent in lists from before it). */
  joined?: number[];
}

export interface IndexVectors {
  sources: string[];
  chunksPerDoc: number[];
  opening: Float32Array[];
  meanChunk: Float32Array[];
  /**
   * The opening rebuilt from the stored chunks, which is what a sync could
   * fill an old index with, and which for a one-chunk document is that
   * chunk's text: its stored vector serves, so only longer documents cost.
   */
  joined: Float32Array[];
  /** Ingest cost of the openings beside the chunks', embedded alternately in this run (ms, one entry a round; no chunk timings with 0 rounds). */
  cost: { chunkMs: number[]; openingMs: number[]; chunks: number; openings: number; openingTokens: number; chunkTokens: number; joinedMs?: number[]; joinedFresh?: number; joinedTokens?: number };
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}


async function timedEmbed(embedder: Embedder, texts: string[]): Promise<{ ms: number; vectors: Float32Array[] }> {
  const start = performance.now();
  const vectors = await embedder.embed(texts, "passage");
  return { ms: performance.now() - start, vectors };
}

/** Every document's chunk vectors (as stored), its mean, and its opening embedded here; timing the openings against the chunks. */
export async function indexVectors(app: App, embedder: Embedder, log: (line: string) => void, rounds = 2): Promise<IndexVectors> {
  const store = app.store;
  const sources = (await store.listSources()).map((s) => s.source).sort();
  const model = (await store.recordedModel())!;
  const chunkTexts: string[][] = [];
  for (const source of sources) chunkTexts.push((await store.sourceChunks(source)).sort((a, b) => a.chunk_index - b.chunk_index).map((c) => c.text));
  const stored = await storedVectorsFor(store, sources, chunkTexts.flat(), model);
  const meanChunk = chunkTexts.map((texts, d) => {
    const sum = new Float32Array(embedder.dimensions);
    for (const t of texts) {
      const v = stored.get(t);
      if (!v) throw new Error(`no stored vector for a chunk of ${sources[d]}`);
      for (let i = 0; i < sum.length; i++) sum[i]! += v[i]!;
    }
    return normalised(sum);
  });
  const openings = sources.map((s) => readFileSync(s, "utf8").slice(0, OPENING_CHARS));
  const allChunks = chunkTexts.flat();
  const cost: IndexVectors["cost"] = { chunkMs: [], openingMs: [], chunks: allChunks.length, openings: openings.length, openingTokens: 0, chunkTokens: 0 };
  cost.openingTokens = openings.reduce((s, t) => s + Math.min(embedder.maxLength, embedder.countTokens(t, "passage")), 0);
  cost.chunkTokens = allChunks.reduce((s, t) => s + Math.min(embedder.maxLength, embedder.countTokens(t, "passage")), 0);
  const joinedTexts = chunkTexts.map((texts) => texts.join("\n\n").slice(0, OPENING_CHARS));
  const fresh = [...new Set(joinedTexts.filter((t) => !stored.has(t)))];
  Object.assign(cost, { joinedMs: [], joinedFresh: fresh.length, joinedTokens: fresh.reduce((s, t) => s + Math.min(embedder.maxLength, embedder.countTokens(t, "passage")), 0) });
  let freshVectors = new Map<string, Float32Array>();
  let opening: Float32Array[] = [];
  // Alternating, twice each by default: the machine is shared, so one pass of each alone says little.
  for (let round = 0; round < Math.max(rounds, 1); round++) {
    if (rounds > 0) {
      const c = await timedEmbed(embedder, allChunks);
      cost.chunkMs.push(c.ms);
    }
    const o = await timedEmbed(embedder, openings);
    cost.openingMs.push(o.ms);
    opening = o.vectors.map(normalised);
    const j = await timedEmbed(embedder, fresh);
    cost.joinedMs!.push(j.ms);
    freshVectors = new Map(fresh.map((t, i) => [t, j.vectors[i]!]));
    log(`  embed round ${round + 1}: ${allChunks.length} chunks ${cost.chunkMs.at(-1)?.toFixed(0) ?? "not timed"} ms, ${openings.length} openings ${o.ms.toFixed(0)} ms, ${fresh.length} joined openings not already a chunk ${cost.joinedMs!.at(-1)!.toFixed(0)} ms`);
  }
  const joined = joinedTexts.map((t) => normalised(stored.get(t) ?? freshVectors.get(t)!));
  return { sources, chunksPerDoc: chunkTexts.map((t) => t.length), opening, meanChunk, joined, cost };
}

/** One question's lists from the index, as query_documents would search it. */
export async function questionLists(app: App, embedder: Embedder, vectors: IndexVectors, id: string, query: string): Promise<QuestionLists> {
  const docOf = new Map(vectors.sources.map((s, i) => [s, i]));
  const keywordHits = await app.store.keywordSearch(query, CANDIDATES);
  const [qv] = await embedder.embed([query], "query");
  const vectorHits = await app.store.vectorSearch(qv!, CANDIDATES);
  const q = normalised(qv!);
  return {
    id,
    vector: vectorHits.map((h) => ({ doc: docOf.get(h.source)!, chunk: h.chunk_index, value: h._distance ?? 0 })),
    keyword: keywordHits.map((h) => ({ doc: docOf.get(h.source)!, chunk: h.chunk_index, value: h._score ?? 0 })),
    coverage: keywordCoverage(query, keywordHits),
    opening: vectors.opening.map((v) => dot(q, v)),
    meanChunk: vectors.meanChunk.map((v) => dot(q, v)),
    joined: vectors.joined.map((v) => dot(q, v)),
  };
}
