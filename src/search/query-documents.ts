/**
 * query_documents: vector and BM25 candidates, fused by weighted RRF, then
 * the distance, grouping, file and topK filters, then the enclosing sections
 * (parents) once each, and the cited documents (sources) in rank order.
 */
import type { App } from "../app.ts";
import { joinParent } from "../chunk/join-parent.ts";
import { AppError } from "../errors.ts";
import { toChunkResult, type ChunkResult } from "../results.ts";
import type { ChunkStore, Hit } from "../store/chunk-store.ts";
import { displayPath } from "../scan/display-path.ts";
import { scopeFilter } from "../scan/scope.ts";
import { fuseRankings, vectorOnly, type Fused } from "./fusion.ts";
import { keywordCoverage } from "./keyword-coverage.ts";
import { applyResultFilters } from "./result-filters.ts";
import { withLookAlikes, type LookAlike } from "../lookalikes/look-alikes.ts";

export const MAX_TOP_K = 100;
export const DEFAULT_TOP_K = 10;
export const MIN_CANDIDATES = 50;

export interface QueryInput {
  query: string;
  topK?: number;
  scope?: string[];
  /** Overrides RAG_HYBRID_WEIGHT (for tests and benchmarks). */
  hybridWeight?: number;
}

export interface SourceRef {
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
}

export function validateQuery(query: string, topK: number | undefined): number {
  if (!query.trim()) throw new AppError("INVALID_ARGUMENT", "query must not be empty", "Pass the words to search for.");
  const k = topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(k) || k < 1) throw new AppError("INVALID_ARGUMENT", `topK must be at least 1, got ${k}`, `Use a whole number from 1 to ${MAX_TOP_K}.`);
  return Math.min(k, MAX_TOP_K);
}

type Candidate = Hit & { distance: number | null };

export async function queryDocuments(app: App, input: QueryInput): Promise<QueryResult> {
  const topK = validateQuery(input.query, input.topK);
  const { config } = app;
  const filter = scopeFilter(input.scope);
  // One version for every read of this query: hits and their sections never straddle a sync's commit.
  const store = await app.store.snapshot();
  // No table yet: say so without loading (or downloading) the model.
  if (!(await store.open())) return { results: [], sources: [], parents: {}, notice: (await emptyNotice(store, filter, input.scope))! };
  const weight = input.hybridWeight ?? config.hybridWeight;
  const candidates = Math.max(4 * topK, MIN_CANDIDATES);
  // The keyword side needs no query vector, so it runs while the query embeds and the vector side searches.
  const keywordSide: Promise<Candidate[] | null> =
    weight === 0
      ? Promise.resolve(null)
      : store.keywordSearch(input.query, candidates, filter).then(
          (hits) => hits.map((h) => ({ ...h, distance: null })),
          (error) => {
            app.log(`keyword search failed, ranking by vectors only: ${(error as Error).message}`);
            return null;
          },
        );
  const embedder = await app.embedder();
  const [queryVector] = await embedder.embed([input.query], "query");
  const vectorHits: Candidate[] = (await store.vectorSearch(queryVector!, candidates, filter)).map((h) => ({ ...h, distance: h._distance ?? null }));
  const keywordHits = await keywordSide;
  const fused: Fused<Candidate>[] = keywordHits ? fuseRankings(vectorHits, keywordHits, weight, keywordCoverage(input.query, keywordHits)) : vectorOnly(vectorHits);
  const ranked = fused.map((f) => toChunkResult(f.item, f.score, f.distance));
  const results = applyResultFilters(ranked, { maxDistance: config.maxDistance, grouping: config.grouping, maxFiles: config.maxFiles, topK });
  if (results.length === 0) {
    const notice = await emptyNotice(store, filter, input.scope);
    return { results, sources: [], parents: {}, ...(notice ? { notice } : {}) };
  }
  const sources = await withLookAlikes(store.dbPath, await store.open(), citedSources(results, config.roots), config.roots);
  return { results, sources, parents: await parentsOf(store, results) };
}

/** Why nothing came back, when the reason is the index or the scope rather than the query. Counted only then, off the hot path. */
async function emptyNotice(store: ChunkStore, filter: string | undefined, scope: string[] | undefined): Promise<string | undefined> {
  if ((await store.countRows()) === 0) return "The index is empty: nothing has been ingested yet. Run sync_start (or minirag-mcp sync) first.";
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

async function parentsOf(store: ChunkStore, results: ChunkResult[]): Promise<Record<string, string>> {
  const ids = [...new Set(results.map((r) => r.parentId).filter((id): id is string => id !== null))];
  const chunks = await store.parentChunks(ids);
  const parents: Record<string, string> = {};
  for (const id of ids) parents[id] = joinParent(chunks.filter((c) => c.parent_id === id).map((c) => ({ text: c.text, contextLines: c.context_lines })));
  return parents;
}
