/**
 * query_documents: vector and BM25 candidates, fused (fusion.ts), then
 * the distance, grouping, file and topK filters, then the enclosing sections
 * (parents) once each, and the cited documents (sources) in rank order.
 */
import type { App } from "../app.ts";
import { joinParent } from "../chunk/join-parent.ts";
import { AppError } from "../errors.ts";
import { toChunkResult, type ChunkResult } from "../results.ts";
import type { ChunkStore, Hit, RowFilter, SectionChunk } from "../store/chunk-store.ts";
import { lanceReason } from "../store/lost-fragments.ts";
import { displayPath } from "../scan/display-path.ts";
import { scopesAsSources } from "../scan/source-names.ts";
import { fuseRankings, fusesRanks, hitKey, type Fused } from "./fusion.ts";
import type { Embedder } from "../embed/embedder.ts";
import { NoModel } from "../embed/no-model.ts";
import { keywordCoverage } from "./keyword-coverage.ts";
import { nearCandidateDocuments, vectorOnlyWithDocuments, withDocumentEvidence } from "./document-evidence.ts";
import { keywordOrderLowered, lowerNavigation, navigationPlaces } from "./navigation-hits.ts";
import { searchKept } from "./kept-documents.ts";
import { restoreTableHeaders } from "./continued-tables.ts";
import { applyResultFilters } from "./result-filters.ts";
import { emptyIndexNotice } from "./empty-index-notice.ts";
import { withLookAlikes, type LookAlike } from "../lookalikes/look-alikes.ts";
import { labelsOn, type DocumentLabelFields, type FilterCounts } from "../labels/document-labels.ts";
import type { LabelFilterInput } from "../labels/label-filter.ts";
import { searchLabelFilter, withLabelFields } from "../labels/search-labels.ts";

export const MAX_TOP_K = 100;
export const DEFAULT_TOP_K = 10;
export const MIN_CANDIDATES = 50;

/** labels, dateFrom and dateTo filter by document labels (with a classify.toml). */
export interface QueryInput extends LabelFilterInput {
  query: string;
  topK?: number;
  scope?: string[];
  /** Overrides RAG_HYBRID_WEIGHT (for tests and benchmarks). */
  hybridWeight?: number;
  /** Overrides RAG_FUSION (for benchmarks: both rules over one index in one run). */
  fusion?: "relative" | "rrf";
  /** Overrides RAG_DOC_VECTORS for the ranking (for benchmarks: with and without over one index). */
  documentVectors?: boolean;
}

/** With a classify.toml, each source also carries its labels and date. */
export interface SourceRef extends DocumentLabelFields {
  source: string;
  title: string;
  hits: number;
  displayPath: string;
  /** Other indexed documents that share most of this one's text; absent when there are none. */
  lookAlikes?: LookAlike[];
}

export interface QueryResult {
  results: ChunkResult[];
  sources: SourceRef[];
  parents: Record<string, string>;
  notice?: string;
  /** Set with a label or date filter: documents in scope left out only for want of a label or a date. */
  filterCounts?: FilterCounts;
  filterNotice?: string;
}

export function validateQuery(query: string, topK: number | undefined): number {
  if (!query.trim()) throw new AppError("INVALID_ARGUMENT", "query must not be empty", "Pass the words to search for.");
  const k = topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(k) || k < 1) throw new AppError("INVALID_ARGUMENT", `topK must be at least 1, got ${k}`, `Use a whole number from 1 to ${MAX_TOP_K}.`);
  return Math.min(k, MAX_TOP_K);
}

type Candidate = Hit & { distance: number | null };

export async function queryDocuments(app: App, asked: QueryInput): Promise<QueryResult> {
  const topK = validateQuery(asked.query, asked.topK);
  const { config } = app;
  // Scopes as the index names files (on a shared index, root-relative: scan/source-names.ts).
  const input = { ...asked, scope: scopesAsSources(app.names, config.roots, asked.scope) };
  // One version for every read of this query, the label filter's too: hits and their sections never straddle a sync's
  // commit, and a question kept on the version before a watched sync (store/query-hold.ts) filters by that version's labels.
  const store = await app.store.snapshot();
  // A label or date filter names the documents it keeps (labels/search-labels.ts); none kept answers at once.
  const labelled = await searchLabelFilter(store, app.taxonomy, input, input.scope);
  if (labelled?.empty) return { results: [], sources: [], parents: {}, ...labelled.fields };
  const scoped: RowFilter | undefined = input.scope?.length ? { scope: input.scope } : undefined;
  const filter: RowFilter | undefined = labelled ? { ...scoped, sources: labelled.sources } : scoped;
  // No table yet: say so without loading (or downloading) the model.
  if (!(await store.hasTable())) return { results: [], sources: [], parents: {}, notice: (await emptyNotice(store, filter, input.scope, config))! };
  const configured = input.hybridWeight ?? config.hybridWeight;
  // After a write the version's look-alike signatures are read again: started now, that read overlaps the query's
  // embedding and searches instead of following them (one read per version, shared with the server's re-warm; a
  // failure is met again, and handled, where the answer needs it). The document vectors the query needs are read
  // for its candidates alone until the whole set follows (document-vector-index.ts).
  void app.signatures.at(store).catch(() => {});
  const documentVectors = input.documentVectors ?? config.documentVectors;
  if (documentVectors && configured < 1) app.documentVectors.follow(store);
  const candidates = Math.max(4 * topK, MIN_CANDIDATES);
  const searchKeywords = (): Promise<Candidate[] | null> =>
    searchKept((limit, where) => store.keywordSearch(input.query, limit, where), candidates, scoped, labelled).then(
      (hits) => hits.map((h) => ({ ...h, distance: null })),
      (error) => {
        app.log(`keyword search failed, ranking by vectors only: ${lanceReason(error)} (a sync rebuilds an index whose files were lost)`);
        return null;
      },
    );
  // The keyword side needs no query vector, so it runs while the model loads, the query embeds and the vector side searches.
  let keywordSide = configured === 0 ? null : searchKeywords();
  // Keyword-only mode: no model could load, so the keyword side answers alone, whatever the weight.
  const model = await app.embedderOrNone({ cached: true, atVersion: store.pinnedAt ?? undefined });
  const none = model instanceof NoModel ? model : null;
  if (none) keywordSide ??= searchKeywords();
  const weight = none ? 1 : configured;
  let vectorHits: Candidate[] = [];
  let queryVector: Float32Array | undefined;
  if (!none) {
    [queryVector] = await (model as Embedder).embed([input.query], "query");
    vectorHits = (await searchKept((limit, where) => store.vectorSearch(queryVector!, limit, where), candidates, scoped, labelled)).map((h) => ({ ...h, distance: h._distance ?? null }));
  }
  const keywordHits = keywordSide ? await keywordSide : null;
  if (none && !keywordHits) throw none.reason; // neither side can answer: the model's own error says why
  const fusion = keywordHits && { rule: input.fusion ?? config.fusion, coverage: keywordCoverage(input.query, keywordHits), weight };
  // Each document's own vector ranks the documents the two sides found (document-evidence.ts).
  // At w = 1 the list's part, g (1 - w), is nothing, unless the keyword side failed and vectors answer alone.
  const withDocuments = !none && documentVectors && (weight < 1 || !keywordHits);
  const near = withDocuments ? await nearCandidateDocuments(app, store, queryVector!, [...vectorHits, ...(keywordHits ?? [])]) : [];
  // Chunks that are mostly links rank below what they point to (navigation-hits.ts): by places where fusion goes by ranks.
  const byRanks = none !== null || (fusion !== null && fusesRanks(fusion.rule, fusion.coverage));
  const fused: Fused<Candidate>[] = lowerNavigation(
    none
      ? fuseRankings([], keywordOrderLowered(keywordHits!), 1)
      : fusion
        ? withDocumentEvidence(vectorHits, keywordHits!, near, { ...fusion, placesDown: navigationPlaces })
        : vectorOnlyWithDocuments(vectorHits, near),
    byRanks,
  );
  // A damaged index answers from the rest of it and says so first (store/readable-clone.ts).
  const modeNotice = [await store.damageNotice(), await keywordOnlyNotice(store, none, config.maxDistance !== undefined)].filter(Boolean).join(" ") || undefined;
  // RAG_MAX_DISTANCE drops hits without a distance, which in keyword-only mode is every hit: it has nothing to judge then.
  const kept = applyResultFilters(
    fused.map((f) => ({ hit: f.item, score: f.score, distance: f.distance, source: f.item.source })),
    { maxDistance: none ? undefined : config.maxDistance, grouping: config.grouping, maxFiles: config.maxFiles, topK },
  );
  if (kept.length === 0) {
    const notice = [modeNotice, await emptyNotice(store, filter, input.scope, config)].filter(Boolean).join(" ");
    return { results: [], sources: [], parents: {}, ...(notice ? { notice } : {}), ...labelled?.fields };
  }
  // The cited documents' look-alikes and labels need only their paths, so they are read beside the kept hits' rows.
  const citedPaths = [...new Set(kept.map((k) => k.source))].map((source) => ({ source }));
  const [extras, shown] = await Promise.all([
    withLookAlikes(app.signatures, store, citedPaths, config.roots, labelsOn(app.taxonomy)).then((cited) => withLabelFields(store, app.taxonomy, cited)),
    shownRows(store, kept),
  ]);
  const results = kept.map((k) => toChunkResult(shown.row(k.hit), k.score, k.distance));
  const extrasOf = new Map(extras.map((e) => [e.source, e]));
  const sources = citedSources(results, config.roots).map((ref) => ({ ...ref, ...extrasOf.get(ref.source) }));
  return { results, sources, parents: shown.parents, ...(modeNotice && { notice: modeNotice }), ...labelled?.fields };
}

/** Said with every answer while search is keyword-only, or while some chunks still wait for vectors. */
async function keywordOnlyNotice(store: ChunkStore, none: NoModel | null, maxDistance: boolean): Promise<string | undefined> {
  if (none) return `Keyword search only. ${none.describe()}`;
  const waiting = await store.pendingCount();
  if (waiting === 0) return undefined;
  // Hits without a distance are dropped by RAG_MAX_DISTANCE (the reference's rule), so then keywords do not find them either.
  const found = maxDistance ? "are left out of answers (RAG_MAX_DISTANCE drops hits without a distance)" : "are found by keywords only";
  return `${waiting} chunks were stored while no embedding model could load and ${found} until a sync gives them vectors (sync_start, or minirag-mcp sync).`;
}

/** Why nothing came back, when the reason is the index or the scope rather than the query. Counted only then, off the hot path. */
async function emptyNotice(store: ChunkStore, filter: RowFilter | undefined, scope: string[] | undefined, config: App["config"]): Promise<string | undefined> {
  if ((await store.countRows()) === 0) return emptyIndexNotice(config);
  if (filter && (await store.countRows(filter)) === 0) {
    return `No indexed documents under scope ${scope!.join(", ")}. A scope is an absolute path or source id prefix.`;
  }
  return undefined;
}

function citedSources(results: ChunkResult[], roots: string[]): SourceRef[] {
  const bySource = new Map<string, SourceRef>();
  for (const r of results) {
    const ref = bySource.get(r.source);
    if (ref) ref.hits++;
    else bySource.set(r.source, { source: r.source, title: r.title, hits: 1, displayPath: displayPath(r.source, roots) });
  }
  return [...bySource.values()];
}

/**
 * The kept hits' rows and their sections, in one read (resultRows): a hit
 * with a section is among its section's chunks. Every row comes from the
 * version the hits were found in, so each one is there.
 */
async function shownRows(store: ChunkStore, kept: { hit: Hit }[]): Promise<{ row(hit: Hit): SectionChunk; parents: Record<string, string> }> {
  const parentIds = [...new Set(kept.map((k) => k.hit.parent_id).filter((id): id is string => id !== null))];
  const rows = await store.resultRows(parentIds, kept.filter((k) => k.hit.parent_id === null).map((k) => k.hit));
  const byKey = new Map(rows.map((r) => [hitKey(r), r]));
  const bySection = new Map<string, SectionChunk[]>();
  for (const r of rows) if (r.parent_id !== null) (bySection.get(r.parent_id) ?? bySection.set(r.parent_id, []).get(r.parent_id)!).push(r);
  const parents: Record<string, string> = {};
  for (const id of parentIds) parents[id] = joinParent((bySection.get(id) ?? []).map((c) => ({ text: c.text, contextLines: c.context_lines, scheme: c.scheme })));
  await restoreTableHeaders(store, parents, bySection);
  return {
    row(hit) {
      const row = byKey.get(hitKey(hit));
      if (!row) throw new Error(`chunk ${hit.chunk_index} of ${hit.source} was found by the search but not read back from the same index version`);
      return row;
    },
    parents,
  };
}
