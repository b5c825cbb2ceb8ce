/**
 * The reads find_mentions makes: every chunk's text and place, column by
 * column (row proxies cost about twice as much over a whole index), and the
 * original text of a few chosen chunks for their snippets.
 */
import type { Table } from "@lancedb/lancedb";
import { sqlString } from "./chunk-row.ts";

export interface MentionRow {
  source: string;
  title: string;
  chunkIndex: number;
  parentId: string | null;
  text: string;
  contextLines: number | null;
  pages: string | null;
  /** The chunk scheme the row was cut by: since 4, own texts are exact slices of the document. */
  scheme: number;
}

const COLUMNS = ["source", "title", "chunk_index", "parent_id", "text", "context_lines", "pages", "scheme"] as const;
/** Chunks per snippet read: keeps the filter short. */
const BATCH = 200;

/** Every row of the table as MentionRow, read a column at a time; columns an older table lacks read as null. */
export async function readMentionRows(table: Table, sources?: string[]): Promise<MentionRow[]> {
  const have = new Set((await table.schema()).fields.map((f) => f.name));
  const columns = COLUMNS.filter((c) => have.has(c));
  const batches = sources ? chunked(sources, BATCH) : [null];
  const rows: MentionRow[] = [];
  for (const batch of batches) {
    let query = table.query().select([...columns]);
    if (batch) query = query.where(`source IN (${batch.map(sqlString).join(", ")})`);
    const arrow = await query.toArrow();
    const column = (name: (typeof COLUMNS)[number]): ArrayLike<unknown> | null => (columns.includes(name) ? values(arrow.getChild(name)!) : null);
    const [source, title, chunkIndex, parentId, text, contextLines, pages, scheme] = COLUMNS.map(column);
    for (let i = 0; i < arrow.numRows; i++) {
      rows.push({
        source: source![i] as string,
        title: title![i] as string,
        chunkIndex: chunkIndex![i] as number,
        parentId: (parentId?.[i] as string | null) ?? null,
        text: text![i] as string,
        contextLines: (contextLines?.[i] as number | null) ?? null,
        pages: (pages?.[i] as string | null) ?? null,
        scheme: (scheme?.[i] as number | null) ?? 0,
      });
    }
  }
  return rows;
}

/**
 * A key per source that changes whenever its text may have: the id of its
 * chunk 0. Every write of a source (ingest or move) gives all its rows ids
 * with a new write token, and merges that only fill columns keep them. Read
 * from chunk-0 rows only: reading every row's id took 250-350 ms at 100k
 * chunks, most of it making JS strings.
 */
export async function readSourceKeys(table: Table): Promise<Map<string, string>> {
  const arrow = await table.query().where("chunk_index = 0").select(["source", "id"]).toArrow();
  const [source, id] = ["source", "id"].map((n) => arrow.getChild(n)!.toArray() as ArrayLike<string>);
  const keys = new Map<string, string>();
  for (let i = 0; i < arrow.numRows; i++) {
    const known = keys.get(source![i]!);
    // Two writers that stored one new file at once leave two chunk 0s: either id will do, as long as it is always the same one.
    if (known === undefined || id![i]! < known) keys.set(source![i]!, id![i]!);
  }
  return keys;
}

/**
 * The stored text of the given chunks, keyed `source#chunkIndex`. Asked as
 * two IN lists and sorted out here: LanceDB took 60-70 ms over 20k rows for
 * an OR of 200 (source AND chunk_index) pairs, 6-10 ms for the IN lists.
 */
export async function readChunkTexts(table: Table, chunks: { source: string; chunkIndex: number }[]): Promise<Map<string, string>> {
  const wanted = new Set(chunks.map((c) => `${c.source}#${c.chunkIndex}`));
  const texts = new Map<string, string>();
  for (const batch of chunked(chunks, BATCH)) {
    const sources = [...new Set(batch.map((c) => c.source))].map(sqlString).join(", ");
    const indexes = [...new Set(batch.map((c) => c.chunkIndex))].join(", ");
    const arrow = await table.query().where(`source IN (${sources}) AND chunk_index IN (${indexes})`).select(["source", "chunk_index", "text"]).toArrow();
    const [source, index, text] = ["source", "chunk_index", "text"].map((n) => arrow.getChild(n)!.toArray() as ArrayLike<unknown>);
    for (let i = 0; i < arrow.numRows; i++) {
      const key = `${source![i]}#${index![i]}`;
      if (wanted.has(key)) texts.set(key, text![i] as string);
    }
  }
  return texts;
}

/** A column's values with nulls kept: toArray gives 0 for a null in an integer column. */
function values(vector: { toArray(): unknown; nullCount: number; length: number; isValid(i: number): boolean }): ArrayLike<unknown> {
  const all = vector.toArray() as ArrayLike<unknown>;
  if (vector.nullCount === 0) return all;
  return Array.from({ length: vector.length }, (_, i) => (vector.isValid(i) ? all[i] : null));
}

function chunked<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
