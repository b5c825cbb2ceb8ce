/** The chunks table: one row per retrieval unit. Columns are snake_case because LanceDB's SQL folds unquoted names. */
import { Bool, Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from "apache-arrow";

export type SourceType = "file" | "data" | "url";

export interface ChunkRow {
  id: string;
  source: string;
  source_type: SourceType;
  title: string;
  chunk_index: number;
  parent_id: string | null;
  text: string;
  vector: Float32Array;
  scheme: number;
  content_hash: string;
  mtime: number;
  file_size: number;
  ingested_at: string;
  ocr_engine: string;
  /**
   * Leading lines of text that repeat context (seeded title, breadcrumb, table
   * header, split-code note), dropped when sections and documents are rebuilt.
   * Null or absent on rows from an index built before it was recorded.
   */
  context_lines?: number | null;
  /** A PDF chunk's pages, "12" or "12-13"; null where they cannot be told for certain, for other formats, and on older rows. */
  pages?: string | null;
  /** The look-alike signature (store/signatures.ts): on chunk 0 only, null on other rows and until an older index is signed. */
  minhash?: string | null;
  /** text and title as the full-text index reads them (keyword-text.ts); the store fills them on write. Null on rows from before they existed until backfilled. */
  text_search?: string | null;
  title_search?: string | null;
  /** Labels and document date (store/label-rows.ts): on chunk 0 only, null elsewhere and without a classify.toml. */
  labels?: string | null;
  label_hash?: string | null;
  doc_date?: string | null;
  date_source?: string | null;
  /**
   * True while the row's vector is a placeholder of zeros: it was stored in
   * keyword-only mode (no model could load) and waits for the next sync with
   * a model. Null or false on every embedded row.
   */
  vector_pending?: boolean | null;
  /** The document's own vector (store/document-vectors.ts): on chunk 0 only, null elsewhere and until a sync fills an older index. */
  doc_vector?: string | null;
  /** The share of the chunk's own text that is link labels (text/link-share.ts); null on rows from before it was recorded. */
  link_share?: number | null;
}

/** The filter that keeps rows without a real vector out of vector search. */
export const HAS_VECTOR = "vector_pending IS NOT TRUE";

/** Every column but the vector: what reads and searches fetch. */
export const META_COLUMNS = ["id", "source", "source_type", "title", "chunk_index", "parent_id", "text", "scheme", "content_hash", "mtime", "file_size", "ingested_at", "ocr_engine", "context_lines", "pages"] as const;

export function chunkSchema(dimensions: number): Schema {
  return new Schema([
    new Field("id", new Utf8(), false),
    new Field("source", new Utf8(), false),
    new Field("source_type", new Utf8(), false),
    new Field("title", new Utf8(), false),
    new Field("chunk_index", new Int32(), false),
    new Field("parent_id", new Utf8(), true),
    new Field("text", new Utf8(), false),
    new Field("vector", new FixedSizeList(dimensions, new Field("item", new Float32(), true)), false),
    new Field("scheme", new Int32(), false),
    new Field("content_hash", new Utf8(), false),
    new Field("mtime", new Float64(), false),
    new Field("file_size", new Float64(), false),
    new Field("ingested_at", new Utf8(), false),
    new Field("ocr_engine", new Utf8(), false),
    new Field("context_lines", new Int32(), true),
    new Field("pages", new Utf8(), true),
    new Field("minhash", new Utf8(), true),
    new Field("text_search", new Utf8(), true),
    new Field("title_search", new Utf8(), true),
    new Field("labels", new Utf8(), true),
    new Field("label_hash", new Utf8(), true),
    new Field("doc_date", new Utf8(), true),
    new Field("date_source", new Utf8(), true),
    new Field("vector_pending", new Bool(), true),
    new Field("doc_vector", new Utf8(), true),
    new Field("link_share", new Float64(), true),
  ]);
}

/** The width of the vector column a table's schema declares; undefined without one. */
export function schemaVectorWidth(schema: { fields: { name: string; type: unknown }[] }): number | undefined {
  const field = schema.fields.find((f) => f.name === "vector");
  return (field?.type as { listSize?: number } | undefined)?.listSize;
}

/** A SQL string literal: quotes doubled. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
