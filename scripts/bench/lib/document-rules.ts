/**
 * Ways to rank documents from one question's lists (evidence-lists.ts), for
 * document-evidence.ts. `today` is the product's rule (fusion.ts, then the
 * result filters at topK 100, a document ranked by its best chunk); the
 * others add document-level evidence to it:
 *
 * - docBlend: a document vector (its opening, or its mean chunk vector) as a
 *   third list beside the fused chunks: on relative fusion's path its cosines
 *   rescaled over the DOC_LIST best documents, weighted g * (1 - w), the
 *   vector side's own weight times g; on rank fusion's path (rrf, or keyword
 *   coverage under 0.5) g * (1 - w) / (k + 1 + rank).
 * - docAsChunk: the document vector as one more chunk on the vector side,
 *   before fusion (squared L2 distance of unit vectors, 2 - 2 cos).
 * - second: a document's best fused chunk plus b times its second best.
 * - count: a document's best fused chunk times 1 + g * ln(its chunks in the fused list).
 *   Both only on relative fusion's path; on rank fusion's they keep today's rule.
 */
import { fuse, rescale, RRF_K, RELATIVE_MIN_COVERAGE, type Fused } from "../../../src/search/fusion.ts";
import { applyResultFilters } from "../../../src/search/result-filters.ts";
import { MAX_TOP_K } from "../../../src/search/query-documents.ts";
import { DOC_PARTIAL_WEIGHT, DOC_WEIGHT, withDocumentEvidence } from "../../../src/search/document-evidence.ts";
import type { QuestionLists } from "./evidence-lists.ts";

export const WEIGHT = 0.6;
/** Documents a document-vector search would return (one side's candidates). */
export const DOC_LIST = 100;

type Cand = { source: string; chunk_index: number; distance: number | null; _score?: number; doc: number };

function candidates(lists: QuestionLists): { vector: Cand[]; keyword: Cand[] } {
  return {
    vector: lists.vector.map((h) => ({ source: String(h.doc), chunk_index: h.chunk, distance: h.value, doc: h.doc })),
    keyword: lists.keyword.map((h) => ({ source: String(h.doc), chunk_index: h.chunk, distance: null, _score: h.value, doc: h.doc })),
  };
}

function fused(lists: QuestionLists, rule: "relative" | "rrf", vector = candidates(lists).vector, weight = WEIGHT): Fused<Cand>[] {
  return fuse(rule, vector, candidates(lists).keyword, weight, lists.coverage);
}

/**
 * Documents in order of their first chunk in the fused list, cut as query_documents cuts it (topK 100 chunks).
 * Another weight is a control, on every question or (rankPathOnly) only where rank fusion ranks (coverage under 0.5).
 */
export function today(lists: QuestionLists, rule: "relative" | "rrf" = "relative", w = WEIGHT, rankPathOnly = false): number[] {
  const weight = rankPathOnly && lists.coverage >= RELATIVE_MIN_COVERAGE ? WEIGHT : w;
  const kept = applyResultFilters(fused(lists, rule, undefined, weight).map((f) => ({ ...f, source: f.item.source, doc: f.item.doc })), { topK: MAX_TOP_K });
  return [...new Set(kept.map((k) => k.doc))];
}

function ranked(scores: Map<number, number>): number[] {
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([d]) => d);
}

/** Best fused chunk score per document (all fused chunks, not only the first 100). */
function bestChunk(f: Fused<Cand>[]): Map<number, number> {
  const best = new Map<number, number>();
  for (const x of f) if (!best.has(x.item.doc)) best.set(x.item.doc, x.score);
  return best;
}

export type DocVector = "opening" | "meanChunk" | "joined";

/** The documents' cosines, best DOC_LIST first. */
function docList(lists: QuestionLists, kind: DocVector, size = DOC_LIST): { doc: number; cos: number }[] {
  return lists[kind]!.map((cos, doc) => ({ doc, cos })).sort((a, b) => b.cos - a.cos).slice(0, size);
}

export interface BlendOptions {
  rule?: "relative" | "rrf";
  /** The document list's weight on rank fusion's path, when it differs from g. */
  rankG?: number;
  /** Lift only documents that have a chunk among the fused candidates (an answer shows chunks, so a document needs one to show). */
  withChunk?: boolean;
  size?: number;
  /**
   * The vector side and the document list share the vector weight (1 - w): the vector side scaled by
   * 1 / (1 + g), the list's part by g / (1 + g), so a chunk the keyword side found with every query word
   * still outranks any document the keyword side did not find, as it does without the list.
   */
  capped?: boolean;
  /** The list made of the documents with a chunk among the fused candidates only, ranked and rescaled among themselves: no search over every document. */
  candidatesOnly?: boolean;
  /** g on relative fusion's path where the keywords matched some but not every query word (0.5 <= coverage < 1), when it differs from g. */
  partialG?: number;
}

export function docBlend(lists: QuestionLists, kind: DocVector, g: number, options: BlendOptions = {}): number[] {
  return ranked(docBlendScores(lists, kind, g, options));
}

/** docBlend's document scores, before ranking. */
function docBlendScores(lists: QuestionLists, kind: DocVector, g: number, options: BlendOptions = {}): Map<number, number> {
  const { rule = "relative", rankG = g, size = DOC_LIST, withChunk = false, capped = false, candidatesOnly = false, partialG } = options;
  const rankPath = rule === "rrf" || lists.coverage < RELATIVE_MIN_COVERAGE;
  if (!rankPath && partialG !== undefined && lists.coverage < 1) g = partialG;
  // Capped: the vector side scaled by s is fusion at the weight w' below, times k (k * fused(w') = (1 - w) s v + w c r).
  const s = capped ? 1 / (1 + (rankPath ? rankG : g)) : 1;
  const k = WEIGHT + (1 - WEIGHT) * s;
  const scores = bestChunk(fused(lists, rule, undefined, WEIGHT / k));
  const docs = candidatesOnly
    ? [...scores.keys()].map((doc) => ({ doc, cos: lists[kind]![doc]! })).sort((a, b) => b.cos - a.cos).slice(0, size)
    : docList(lists, kind, size);
  const closeness = rescale(docs.map((d) => d.cos));
  docs.forEach((d, i) => {
    if (withChunk && !scores.has(d.doc)) return;
    const part = rankPath ? (rankG * (1 - WEIGHT)) / (RRF_K + 1 + i) : g * (1 - WEIGHT) * closeness[i]!;
    scores.set(d.doc, (scores.get(d.doc) ?? 0) + (part * s) / k);
  });
  return scores;
}

/** The document vector alone (the ranking of a tool that embeds each document whole): a reference, not a candidate. */
export function docOnly(lists: QuestionLists, kind: DocVector): number[] {
  return docList(lists, kind).map((d) => d.doc);
}

export function docAsChunk(lists: QuestionLists, kind: DocVector, rule: "relative" | "rrf" = "relative"): number[] {
  const vector = candidates(lists).vector;
  const pseudo: Cand[] = docList(lists, kind).map((d) => ({ source: String(d.doc), chunk_index: -1, distance: 2 - 2 * d.cos, doc: d.doc }));
  const merged = [...vector, ...pseudo].sort((a, b) => a.distance! - b.distance!).slice(0, vector.length);
  return ranked(bestChunk(fused(lists, rule, merged)));
}

/** Fused chunk scores per document, best first; null on rank fusion's path, whose scores sit too close together to add up (measured: ru→en fell from 0.90 to 0.42-0.67). */
function perDocScores(lists: QuestionLists): Map<number, number[]> | null {
  if (lists.coverage < RELATIVE_MIN_COVERAGE) return null;
  const perDoc = new Map<number, number[]>();
  for (const x of fused(lists, "relative")) (perDoc.get(x.item.doc) ?? perDoc.set(x.item.doc, []).get(x.item.doc)!).push(x.score);
  return perDoc;
}

export function second(lists: QuestionLists, b: number): number[] {
  const perDoc = perDocScores(lists);
  if (!perDoc) return today(lists);
  return ranked(new Map([...perDoc].map(([d, s]) => [d, s[0]! + b * (s[1] ?? 0)])));
}

export function count(lists: QuestionLists, g: number): number[] {
  const perDoc = perDocScores(lists);
  if (!perDoc) return today(lists);
  return ranked(new Map([...perDoc].map(([d, s]) => [d, s[0]! * (1 + g * Math.log(s.length))])));
}

/**
 * Vector-only mode (w = 0) with the document list: the vector side's documents, each by its best chunk's
 * score plus its part. "distance": the part is g / (1 + 2 - 2 cos), the document vector's own score on the
 * chunks' scale (1 / (1 + squared L2 distance) of unit vectors); "rescaled": chunks and documents each
 * rescaled over their list, as relative fusion does, the document's part g times its place.
 */
export function vectorOnlyBlend(lists: QuestionLists, kind: DocVector, g: number, shape: "distance" | "rescaled"): number[] {
  const vector = candidates(lists).vector;
  const chunkScores = shape === "distance" ? vector.map((h) => 1 / (1 + h.distance!)) : rescale(vector.map((h) => -h.distance!));
  const scores = new Map<number, number>();
  vector.forEach((h, i) => scores.set(h.doc, Math.max(scores.get(h.doc) ?? -Infinity, chunkScores[i]!)));
  const docs = [...scores.keys()].map((doc) => ({ doc, cos: lists[kind]![doc]! })).sort((a, b) => b.cos - a.cos).slice(0, DOC_LIST);
  const closeness = shape === "distance" ? docs.map((d) => 1 / (3 - 2 * d.cos)) : rescale(docs.map((d) => d.cos));
  docs.forEach((d, i) => scores.set(d.doc, scores.get(d.doc)! + g * closeness[i]!));
  return ranked(scores);
}

/** The BM25 of each document's keyword hits, summed. */
function keywordTotals(lists: QuestionLists): Map<number, number> {
  const total = new Map<number, number>();
  for (const h of lists.keyword) total.set(h.doc, (total.get(h.doc) ?? 0) + h.value);
  return total;
}

/**
 * Keyword evidence at the document level: each keyword hit's BM25 becomes its own plus b times the BM25 of
 * its document's other keyword hits, so a document whose several chunks match the query's words is lifted
 * as whole-document BM25 would lift it. Only where relative fusion ranks (coverage of at least 0.5); the
 * list is re-sorted by the new values. Then the product's rule.
 */
export function keywordDocumentSum(lists: QuestionLists, b: number): QuestionLists {
  if (lists.coverage < RELATIVE_MIN_COVERAGE) return lists;
  const total = keywordTotals(lists);
  const keyword = lists.keyword.map((h) => ({ ...h, value: h.value + b * (total.get(h.doc)! - h.value) })).sort((x, y) => y.value - x.value);
  return { ...lists, keyword };
}

const BEFORE_KEYWORD_FOUND: BlendOptions = { rankG: 2, candidatesOnly: true, partialG: 0.6 };

/** The product's rule until 2026-12-04: the opening's list, g 0.45 for every chunk, 0.6 at partial coverage, 2 on the rank path. */
export function beforeKeywordFound(lists: QuestionLists): number[] {
  return docBlend(lists, "opening", 0.45, BEFORE_KEYWORD_FOUND);
}

/**
 * The product's rule, run by its own code (search/document-evidence.ts withDocumentEvidence) over the lists: the
 * candidates' documents by their openings' cosines, the best DOC_LIST; a document ranks by its best chunk.
 */
export function product(lists: QuestionLists): number[] {
  const { vector, keyword } = candidates(lists);
  const near = [...new Set([...vector, ...keyword].map((c) => c.doc))]
    .map((doc) => ({ doc: { source: String(doc), vector: new Int8Array(0), scale: 0 }, cos: lists.opening[doc]! }))
    .sort((a, b) => b.cos - a.cos)
    .slice(0, DOC_LIST);
  return ranked(bestChunk(withDocumentEvidence(vector, keyword, near, { rule: "relative", coverage: lists.coverage, weight: WEIGHT })));
}

/**
 * The rule before the keyword-found lift plus a fourth list: the keyword side's documents, each by the sum of its keyword hits'
 * BM25, rescaled over them, weighted gk * w * coverage (the keyword side's own weight times gk) and added to
 * the document's score. Only where relative fusion ranks.
 */
export function productWithKeywordDocuments(lists: QuestionLists, gk: number): number[] {
  const scores = docBlendScores(lists, "opening", 0.45, BEFORE_KEYWORD_FOUND);
  if (lists.coverage < RELATIVE_MIN_COVERAGE) return ranked(scores);
  const total = keywordTotals(lists);
  const docs = [...total.keys()];
  const closeness = rescale(docs.map((d) => total.get(d)!));
  docs.forEach((d, i) => scores.set(d, (scores.get(d) ?? 0) + gk * WEIGHT * lists.coverage * closeness[i]!));
  return ranked(scores);
}

/**
 * The rule before the keyword-found lift, but where the keywords matched every query word, a chunk the keyword side found gains
 * gHi of its document's part and one found only by vectors keeps DOC_WEIGHT: the promise (a chunk that matched
 * every word outranks anything found only by meaning) binds only the latter. partialHi: the same lift for
 * keyword-found chunks where coverage is partial (at least DOC_PARTIAL_WEIGHT there). A document ranks by its best chunk.
 * The product takes gHi = KEYWORD_FOUND_DOC_WEIGHT with partialHi; `product` runs its own code.
 */
export function productKeywordFoundLift(lists: QuestionLists, gHi: number, partialHi = false): number[] {
  if (lists.coverage < RELATIVE_MIN_COVERAGE) return beforeKeywordFound(lists);
  const found = new Set(lists.keyword.map((h) => `${h.doc} ${h.chunk}`));
  const f = fused(lists, "relative");
  const docs = [...new Set(f.map((x) => x.item.doc))].map((doc) => ({ doc, cos: lists.opening[doc]! })).sort((a, b) => b.cos - a.cos).slice(0, DOC_LIST);
  const closeness = new Map(rescale(docs.map((d) => d.cos)).map((c, i) => [docs[i]!.doc, c]));
  const full = lists.coverage >= 1;
  const scores = new Map<number, number>();
  for (const x of f) {
    const byKeyword = found.has(`${x.item.doc} ${x.item.chunk_index}`);
    const g = full ? (byKeyword ? gHi : DOC_WEIGHT) : byKeyword && partialHi ? Math.max(DOC_PARTIAL_WEIGHT, gHi) : DOC_PARTIAL_WEIGHT;
    const score = x.score + g * (1 - WEIGHT) * (closeness.get(x.item.doc) ?? 0);
    scores.set(x.item.doc, Math.max(scores.get(x.item.doc) ?? -Infinity, score));
  }
  return ranked(scores);
}
