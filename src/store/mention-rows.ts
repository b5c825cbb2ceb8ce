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
}

const COLUMNS = ["source", "title", "chunk_index", "parent_id", "text", "context_lines", "pages"] as const;
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
    const [source, title, chunkIndex, parentId, text, contextLines, pages] = COLUMNS.map(column);
    for (let i = 0; i < arrow.numRows; i++) {
      rows.push({
        source: source![i] as string,
        title: title![i] as string,
        chunkIndex: chunkIndex![i] as number,
        parentId: (parentId?.[i] as string | null) ?? null,
        text: text![i] as string,
        contextLines: (contextLines?.[i] as number | null) ?? null,
        pages: (pages?.[i] as string | null) ?? null,
      });
    }
  }
  return rows;
}

/**
 * Each source's row ids joined: every write of a source (ingest or move)
 * gives all its rows new ids, and merges that only fill columns keep them, so
 * an unchanged key means unchanged text. Two columns, cheap to read whole.
 */
export async function readSourceKeys(table: Table): Promise<Map<string, string>> {
  const arrow = await table.query().select(["source", "id"]).toArrow();
  const [source, id] = ["source", "id"].map((n) => arrow.getChild(n)!.toArray() as ArrayLike<string>);
  const ids = new Map<string, string[]>();
  for (let i = 0; i < arrow.numRows; i++) {
    const list = ids.get(source![i]!);
    if (list) list.push(id![i]!);
    else ids.set(source![i]!, [id![i]!]);
  }
  return new Map([...ids].map(([s, list]) => [s, list.sort().join("\n")]));
}

/** The stored text of the given chunks, keyed `source#chunkIndex`. */
export async function readChunkTexts(table: Table, chunks: { source: string; chunkIndex: number }[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const batch of chunked(chunks, BATCH)) {
    const filter = batch.map((c) => `(source = ${sqlString(c.source)} AND chunk_index = ${c.chunkIndex})`).join(" OR ");
    const arrow = await table.query().where(filter).select(["source", "chunk_index", "text"]).toArrow();
    const [source, index, text] = ["source", "chunk_index", "text"].map((n) => arrow.getChild(n)!.toArray() as ArrayLike<unknown>);
    for (let i = 0; i < arrow.numRows; i++) texts.set(`${source![i]}#${index![i]}`, text![i] as string);
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
