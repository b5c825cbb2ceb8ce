/**
 * The read side of the chunks table: searches, a source's chunks, the rows
 * an answer shows (its hits and their sections) and the per-source summary.
 * Free functions over a table (the version a ChunkStore or its snapshot
 * reads) and the columns that table has, each selecting only the columns its
 * caller uses: every selected column is read and copied for every row a
 * search returns.
 */
import type { Table } from "@lancedb/lancedb";
import { loadLanceDb } from "../native/lancedb.ts";
import { HAS_VECTOR, META_COLUMNS, sqlString, type ChunkRow } from "./chunk-row.ts";
import { keywordQuery } from "./keyword-text.ts";
import { LEGACY_SEARCH_COLUMNS, SEARCH_COLUMNS } from "./search-columns.ts";
import { withPlan, type VectorPlan } from "./vector-index.ts";
import { summariseSources, type SourceSummary, type SummaryRow } from "./source-summary.ts";

export type Meta = Omit<ChunkRow, "vector">;

/**
 * What a search hit carries: what fusion, the result filters and the sections
 * read need. A hit's text, title and pages are read only for the hits an
 * answer keeps, together with their sections (resultRows): every column a
 * search selects is read and copied for all its rows, up to 110 a side. At
 * 100k chunks (e5, 200 scifact questions) leaving them out took 0.7 ms from
 * the vector side and 0.9 ms from the keyword side measured alone; whole
 * queries, alternating with the build before, used 0.6-1.0 ms less CPU and
 * answered 0-0.9 ms sooner at p50 (scripts/bench/query-profile.ts). A hit
 * is told apart by source and chunk_index (search/fusion.ts hitKey), not by
 * id: at 100k chunks id took 1.1-1.3 ms from the vector side and 1.9 ms from
 * the keyword side (2026-12-02), more than any other column.
 */
export const HIT_COLUMNS = ["source", "chunk_index", "parent_id", "link_share"] as const;
/** text and title come along only from a keyword search on a table without search columns (keyword-coverage.ts reads them then). */
export type Hit = Pick<ChunkRow, (typeof HIT_COLUMNS)[number]> &
  Partial<Pick<ChunkRow, "text_search" | "title_search" | "text" | "title">> & { _distance?: number; _score?: number };

/**
 * What a section is rebuilt from (join-parent.ts), and what a kept hit shows.
 * Rows are told apart by source and chunk_index, not id: each column is one
 * more read of every row, and at 100k chunks id cost about 0.3 ms (title as
 * much, pages nothing measurable, being mostly null).
 */
export const SECTION_COLUMNS = ["source", "title", "chunk_index", "parent_id", "text", "context_lines", "pages", "scheme"] as const;
export type SectionChunk = Pick<ChunkRow, (typeof SECTION_COLUMNS)[number]>;

/** A table's columns among the wanted ones: a table written by an older version may lack a newer column. */
function present<T extends string>(wanted: readonly T[], columns: Set<string> | null): T[] {
  return wanted.filter((c) => columns?.has(c) ?? true);
}

export interface VectorSearchOptions extends VectorPlan {
  /** Rows waiting for vectors hold zeros: at a fixed distance from every query, they would rank as noise. */
  skipPending: boolean;
  filter?: string;
}

/**
 * LanceDB orders hits of equal score as its threads finish, and picks among
 * rows tied at its cut as they come: every chunk of a document shares its
 * title's keyword score, and copies of a file share their distances. The
 * same scifact question asked twice of 1,006 chunks gave a different keyword
 * ranking in 133 of 200 questions. Ties are ordered by source and chunk
 * here, and each side asks for some rows past its limit, so a tie at the cut
 * is settled by that order rather than by LanceDB, unless it runs past the
 * extra rows (a file with more copies than that). With twice the keyword
 * rows the two answers differed in 1 of 200 (11 without, none with 4 times),
 * for about 2 ms more at 100k chunks, beside the question's embedding.
 */
/** Rows past the limit: a keyword tie is a whole document's chunks, a vector tie only exact copies of one text. Capped, as a filtered search widens its window to hundreds. */
const KEYWORD_EXTRA_ROWS = 50;
const VECTOR_EXTRA_ROWS = 10;

function byPosition(a: { source: string; chunk_index: number }, b: { source: string; chunk_index: number }): number {
  return a.source < b.source ? -1 : a.source > b.source ? 1 : a.chunk_index - b.chunk_index;
}

export async function vectorSearch(table: Table, columns: Set<string> | null, vector: Float32Array, limit: number, options: VectorSearchOptions): Promise<Hit[]> {
  let query = withPlan(table.vectorSearch(vector).distanceType("l2"), options).limit(limit + Math.min(limit, VECTOR_EXTRA_ROWS)).select([...present(HIT_COLUMNS, columns), "_distance"]);
  const where = options.skipPending ? [options.filter, HAS_VECTOR].filter(Boolean).map((f) => `(${f})`).join(" AND ") : options.filter;
  if (where) query = query.where(where);
  return ((await query.toArray()) as Hit[]).map(plain).sort((a, b) => a._distance! - b._distance! || byPosition(a, b)).slice(0, limit);
}

/** `indexed`: the keyword columns the table's full-text indexes cover (keywordColumns in search-columns.ts). */
export async function keywordSearch(table: Table, columns: Set<string> | null, indexed: readonly string[], text: string, limit: number, filter?: string): Promise<Hit[]> {
  const lance = await loadLanceDb();
  // An index built before the search columns is read through its old text and title indexes until a write moves them.
  const onSearchColumns = indexed === SEARCH_COLUMNS;
  const asked = onSearchColumns ? keywordQuery(text) : text;
  // Nothing left but stop words ("в и на"): nothing to match, as LanceDB answers "the of and".
  if (!asked.trim()) return [];
  let query = table
    .query()
    .fullTextSearch(new lance.MultiMatchQuery(asked, [...indexed]))
    .limit(limit + Math.min(limit, KEYWORD_EXTRA_ROWS))
    // The search columns (or before them text and title) come along so the caller can see which query words a hit matched (keyword-coverage.ts).
    .select([...present(HIT_COLUMNS, columns), ...(onSearchColumns ? SEARCH_COLUMNS : LEGACY_SEARCH_COLUMNS), "_score"]);
  if (filter) query = query.where(filter);
  return ((await query.toArray()) as Hit[]).map(plain).sort((a, b) => b._score! - a._score! || byPosition(a, b)).slice(0, limit);
}

/**
 * The rows an answer shows: every chunk of the given sections (parent ids),
 * and the given chunks that have no section (rows from before sections), in
 * source and chunk order. One read gives both a kept hit's own text and its
 * section's. The section-less chunks are asked for by source, which is
 * indexed (id is not), so the answer may hold other chunks of their sources'
 * at those positions: callers pick rows by source and chunk_index.
 */
export async function resultRows(table: Table, columns: Set<string> | null, parentIds: string[], loose: { source: string; chunk_index: number }[]): Promise<SectionChunk[]> {
  const read = (where: string) => table.query().where(where).select(present(SECTION_COLUMNS, columns)).toArray() as Promise<SectionChunk[]>;
  const looseWhere = () =>
    `source IN (${[...new Set(loose.map((c) => c.source))].map(sqlString).join(", ")}) AND chunk_index IN (${[...new Set(loose.map((c) => c.chunk_index))].join(", ")})`;
  const [sections, others] = await Promise.all([
    parentIds.length ? read(`parent_id IN (${parentIds.map(sqlString).join(", ")})`) : [],
    loose.length ? read(looseWhere()) : [],
  ]);
  return [...sections, ...others].map(plain).sort(byPosition);
}

/** A source's chunks in order, optionally only chunk_index from..to. */
export async function sourceChunks(table: Table, columns: Set<string> | null, source: string, from?: number, to?: number): Promise<Meta[]> {
  const range = from === undefined || to === undefined ? "" : ` AND chunk_index >= ${from} AND chunk_index <= ${Math.min(to, 2 ** 31 - 1)}`;
  const rows = (await table
    .query()
    .where(`source = ${sqlString(source)}${range}`)
    .select(present(META_COLUMNS, columns))
    .toArray()) as Meta[];
  return rows.map(plain).sort((a, b) => a.chunk_index - b.chunk_index);
}

export async function listSources(table: Table, filter?: string): Promise<SourceSummary[]> {
  const columns = ["source", "source_type", "title", "content_hash", "mtime", "file_size", "scheme", "ocr_engine", "chunk_index"] as const;
  // Read column by column: row proxies cost about twice as much over every chunk of the index (5,000 rows: 22-43 ms against 13-15).
  let query = table.query().select([...columns]);
  if (filter) query = query.where(filter);
  const arrow = await query.toArrow();
  // A filter that keeps no row comes back as a table without columns.
  if (arrow.numRows === 0) return [];
  const values = columns.map((name) => arrow.getChild(name)!.toArray() as ArrayLike<unknown>);
  const rows = Array.from({ length: arrow.numRows }, (_, i) => Object.fromEntries(columns.map((name, c) => [name, values[c]![i]])) as unknown as SummaryRow);
  return summariseSources(rows);
}

/** Arrow rows are proxies; copy the fields out so callers get plain objects. */
function plain<T extends object>(row: T): T {
  return { ...row };
}
