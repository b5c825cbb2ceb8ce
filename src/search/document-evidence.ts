/**
 * Evidence at the document level beside the chunks': each document's own
 * vector (ingest/document-openings.ts, its opening as far as the model reads)
 * ranks the documents against the query, and that list is fused as a third
 * one. A document's part is added to every chunk of it in the fused list, so
 * a document ranks by its best chunk plus its part; a document in the list
 * with no chunk among the candidates enters with its opening chunk.
 *
 * The part follows the fusion in use (fusion.ts): on relative fusion's path
 * DOC_WEIGHT * (1 - w) * the document's cosine rescaled over the list, on
 * rank fusion's path DOC_RANK_WEIGHT * (1 - w) / (k + 1 + its rank). Chosen
 * with multilingual-e5-small over the product's own candidate lists, tuned on
 * half A of each set and checked on half B (scripts/bench/document-evidence.ts;
 * the figures are in docs/performance.md): it raised every set, most the
 * Russian questions over English paragraphs, where the chunks' vectors are
 * the only evidence and a 512-token reading of a paragraph beats 200-token
 * pieces of it.
 */
import type { App } from "../app.ts";
import type { ChunkStore, RowFilter } from "../store/chunk-store.ts";
import { nearestDocuments, type NearDocument } from "../store/document-vector-index.ts";
import { sourceFilter } from "../store/row-filter.ts";
import { fuse, fusesRanks, RELATIVE_MIN_COVERAGE, rescale, RRF_K, type Candidate, type Fused } from "./fusion.ts";

/** The document list's weight on relative fusion's path, as a share of the vector side's weight (1 - w). */
export const DOC_WEIGHT = 0.75;
/** The same on rank fusion's path, where a cross-lingual question's keyword side says little. */
export const DOC_RANK_WEIGHT = 2;
/** Documents in the third list. */
export const DOC_LIST = 100;

/** How the query's two sides are fused (fusion.ts): the rule, the keyword coverage and the keyword weight w. */
export interface FusionSettings {
  rule: "relative" | "rrf";
  coverage: number;
  weight: number;
}

/**
 * The two sides fused with the document list's part added to each listed
 * document's chunks, best first. Where the keyword side matched at least
 * half the query's words, the vector side and the list share the vector
 * weight (1 - w), the side scaled by 1 / (1 + g) and the list by g / (1 + g),
 * so the keyword side keeps its say: a chunk that matched every query word
 * still outranks any document the keyword side did not find, as without the
 * list (fusion.ts). This is computed as fusion at the weight w' that gives
 * the scaled sides' ratio, with the list's part divided by the same factor.
 * Below half coverage the list's part is added to the vector side's whole
 * weight. `opening` makes the hit a document without a chunk among the
 * candidates enters with.
 */
export function withDocumentEvidence<T extends Candidate & { _score?: number }>(
  vectorHits: T[],
  keywordHits: T[],
  near: readonly NearDocument[],
  fusion: FusionSettings,
  opening: (doc: NearDocument) => T,
): Fused<T>[] {
  const { rule, coverage, weight } = fusion;
  if (near.length === 0 || weight >= 1) return fuse(rule, vectorHits, keywordHits, weight, coverage);
  const byRanks = fusesRanks(rule, coverage);
  const g = byRanks ? DOC_RANK_WEIGHT : DOC_WEIGHT;
  // Below half coverage the keyword side matched a stray word or number and has no say to keep.
  const shrink = coverage >= RELATIVE_MIN_COVERAGE ? 1 / (1 + g) : 1;
  // k * fused(w') = (1 - w) * shrink * vector + w * c * keyword.
  const k = weight + (1 - weight) * shrink;
  const fused = fuse(rule, vectorHits, keywordHits, weight / k, coverage);
  const closeness = rescale(near.map((n) => n.cos));
  const part = new Map(near.map((n, i) => [n.doc.source, ((1 - weight) * shrink * g * (byRanks ? 1 / (RRF_K + 1 + i) : closeness[i]!)) / k]));
  const present = new Set<string>();
  const out = fused.map((f) => {
    present.add(f.item.source);
    return { ...f, score: f.score + (part.get(f.item.source) ?? 0) };
  });
  for (const n of near) {
    if (present.has(n.doc.source)) continue;
    // Squared L2 between unit vectors, the vector side's own measure.
    out.push({ item: opening(n), score: part.get(n.doc.source)!, distance: 2 - 2 * n.cos });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** The query's two sides fused with its document list (store: the snapshot the query reads; filter: its scope and label filter). */
export async function fuseWithDocuments<T extends Candidate & { parent_id: string | null; _score?: number }>(
  app: App,
  store: ChunkStore,
  queryVector: Float32Array,
  filter: RowFilter | undefined,
  sides: { vectorHits: T[]; keywordHits: T[] },
  fusion: FusionSettings,
): Promise<Fused<T>[]> {
  const near = nearestDocuments(await app.documentVectors.at(store), queryVector, DOC_LIST, sourceFilter(filter));
  return withDocumentEvidence(sides.vectorHits, sides.keywordHits, near, fusion, (n) => ({ source: n.doc.source, chunk_index: 0, parent_id: n.doc.parentId, distance: 2 - 2 * n.cos }) as T);
}
