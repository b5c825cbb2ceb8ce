/**
 * Evidence at the document level beside the chunks': each document's own
 * vector (ingest/document-openings.ts, its opening as far as the model reads)
 * ranks the documents the two sides found against the query, and that list is
 * fused as a third one. A document's part is added to every chunk of it in the
 * fused list, so a document ranks by its best chunk plus its part.
 *
 * The list holds the candidates' documents only (at most DOC_LIST): a list
 * over every document in scope ranked every quality set exactly the same, and
 * would cost one dot product per document in the index on every query (about
 * 100 ms at 300,000 documents), where this costs one per candidate document.
 *
 * The part is g * (1 - w), the vector side's weight times g, shaped as the
 * fusion in use shapes the vector side (fusion.ts): the document's cosine
 * rescaled over the list, or 1 / (k + 1 + its rank) where fusion goes by
 * ranks. Measured with multilingual-e5-small over the product's own candidate
 * lists, tuned on half A of each set and checked on half B
 * (scripts/bench/document-evidence.ts; figures in docs/performance.md).
 *
 * For a chunk found only by vectors, where the keywords matched every query
 * word g is DOC_WEIGHT, under 1/2: with w = 0.6, (1 - w)(1 + g) stays below
 * w, so a chunk that matched every query word still outranks any document
 * found only by vectors, as without the list. Where they matched at least
 * half the words but not all, no chunk matched every word, nothing binds,
 * and g is DOC_PARTIAL_WEIGHT. A chunk the keyword side found as well is
 * bound by no promise, and gains KEYWORD_FOUND_DOC_WEIGHT of its document's
 * part wherever relative fusion ranks. Below half
 * coverage the keyword side matched a stray word or number and there is no
 * such promise to keep: there the list counts most (DOC_RANK_WEIGHT), and it
 * is where it helps most, lifting Russian questions over English paragraphs
 * from 0.849 to 0.892, since the chunks' vectors are the only real evidence
 * and a 512-token reading of a paragraph beats 200-token pieces of it.
 *
 * Vectors alone (w = 0, or the keyword side failed) use the same list of the
 * vector side's documents, on that ranking's own scale (vectorOnlyWithDocuments).
 */
import type { App } from "../app.ts";
import type { ChunkStore } from "../store/chunk-store.ts";
import { nearestDocuments, type DocumentVector, type NearDocument } from "../store/document-vector-index.ts";
import { fuse, fusesRanks, hitKey, RELATIVE_MIN_COVERAGE, rescale, RRF_K, vectorOnly, type Candidate, type Fused, type PlacesDown } from "./fusion.ts";

/** g where the keywords matched every query word: under 1/2, see above. */
export const DOC_WEIGHT = 0.45;
/**
 * g where they matched at least half the query's words but not all: no chunk matched every word, so the
 * promise above does not bind. Tuned on half A (0.6 over 0.45, 0.75, 1 and 1.5): over all questions
 * xquad-en 0.983 -> 0.985, scifact (1,000) 0.839 -> 0.841, xquad-ru 0.975 either way.
 */
export const DOC_PARTIAL_WEIGHT = 0.6;
/**
 * g for a chunk the keyword side found, wherever relative fusion ranks: the promise above is about chunks
 * found only by meaning, so it does not bound a chunk both sides found, and a document whose own vector
 * agrees with its chunk's words is the likeliest answer. Tuned on half A with the e5 files over the same
 * candidate lists (0.45, 0.6, 0.75, 1, 1.5; scripts/bench/document-evidence.ts), checked on half B: over all
 * questions xquad-en 0.984 -> 0.987, xquad-ru 0.975 -> 0.976, scifact (1,000) 0.844 -> 0.849 (half A 0.830 ->
 * 0.840, half B 0.862 -> 0.860); the cross-lingual set fuses by ranks and is unchanged.
 */
export const KEYWORD_FOUND_DOC_WEIGHT = 1;
/** g below half keyword coverage (a cross-lingual question, say). */
export const DOC_RANK_WEIGHT = 2;
/** Documents in the third list. */
export const DOC_LIST = 100;
/**
 * The document's weight in vector-only ranking. Tuned on half A of each quality set with the e5 files
 * (1 over 0.5 and 2); over all questions it raised scifact's 1,000 abstracts from 0.746 to 0.798 nDCG@10,
 * Russian questions over English paragraphs from 0.841 to 0.884, xquad-en from 0.960 to 0.966 and left
 * xquad-ru as it was (0.951).
 */
export const VECTOR_ONLY_DOC_WEIGHT = 1;

/** How the query's two sides are fused (fusion.ts): the rule, the keyword coverage, the keyword weight w and rank fusion's places down. */
export interface FusionSettings<T = never> {
  rule: "relative" | "rrf";
  coverage: number;
  weight: number;
  placesDown?: PlacesDown<T>;
}

/** The two sides fused, with each listed document's part added to its chunks, best first. */
export function withDocumentEvidence<T extends Candidate & { _score?: number }>(vectorHits: T[], keywordHits: T[], near: readonly NearDocument[], fusion: FusionSettings<T>): Fused<T>[] {
  const { rule, coverage, weight } = fusion;
  const fused = fuse(rule, vectorHits, keywordHits, weight, coverage, fusion.placesDown);
  if (near.length === 0 || weight >= 1) return fused;
  const byRanks = fusesRanks(rule, coverage);
  // The partial weight was tuned on relative fusion's path; RAG_FUSION=rrf keeps DOC_WEIGHT there.
  const g = coverage < RELATIVE_MIN_COVERAGE ? DOC_RANK_WEIGHT : coverage < 1 && !byRanks ? DOC_PARTIAL_WEIGHT : DOC_WEIGHT;
  const closeness = rescale(near.map((n) => n.cos));
  const place = new Map(near.map((n, i) => [n.doc.source, (1 - weight) * (byRanks ? 1 / (RRF_K + 1 + i) : closeness[i]!)]));
  const foundByKeywords = new Set(byRanks ? [] : keywordHits.map(hitKey));
  const gOf = (item: T) => (foundByKeywords.has(hitKey(item)) ? KEYWORD_FOUND_DOC_WEIGHT : g);
  return fused.map((f) => ({ ...f, score: f.score + gOf(f.item) * (place.get(f.item.source) ?? 0) })).sort((a, b) => b.score - a.score);
}

/**
 * Vector-only ranking (w = 0, or the keyword side failed) with the documents' list: a chunk scores
 * 1 / (1 + its squared distance), as without the list, plus VECTOR_ONLY_DOC_WEIGHT / (1 + its document
 * vector's squared distance, 2 - 2 cos of unit vectors), the document vector's own score on the chunks' scale.
 */
export function vectorOnlyWithDocuments<T extends Candidate>(vectorHits: T[], near: readonly NearDocument[]): Fused<T>[] {
  const ranked = vectorOnly(vectorHits);
  if (near.length === 0) return ranked;
  const part = new Map(near.map((n) => [n.doc.source, VECTOR_ONLY_DOC_WEIGHT / (3 - 2 * n.cos)]));
  return ranked.map((f) => ({ ...f, score: f.score + (part.get(f.item.source) ?? 0) })).sort((a, b) => b.score - a.score);
}

/**
 * The DOC_LIST documents of the given hits nearest the query by their own vectors (store: the snapshot the
 * query reads). None when they cannot be read: the answer then comes from the chunks, and the log says why.
 */
export async function nearCandidateDocuments(app: App, store: ChunkStore, queryVector: Float32Array, hits: readonly Candidate[]): Promise<NearDocument[]> {
  let candidates: DocumentVector[];
  try {
    candidates = await app.documentVectors.of(store, [...new Set(hits.map((h) => h.source))]);
  } catch (error) {
    app.log(`document vectors could not be read, ranking without them: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
  return nearestDocuments(candidates, queryVector, DOC_LIST);
}
