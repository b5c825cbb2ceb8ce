/**
 * What a long ingest or sync reports as it goes, so a single large file shows
 * movement too: each file as it is read, each page OCR recognizes in it, its
 * chunks once they are cut, and chunks as their vectors arrive, batch by batch.
 * The CLI draws them (cli/progress.ts); the MCP server sends file events as
 * progress notifications (mcp/tools/sync-start.ts).
 */
export type IngestEvent =
  /** File `index` (from 0) of `total` is being read, converted and chunked; its size, and that of all `total` files. */
  | { kind: "file"; index: number; total: number; path: string; bytes: number; totalBytes: number }
  /** OCR recognized one more page of the file being read. */
  | { kind: "page"; path: string }
  /** `chunks` more chunks of `path` wait for their vectors; `final`: the file has no more (a streamed text file's come window by window). */
  | { kind: "chunks"; path: string; chunks: number; final: boolean }
  /** `chunks` more chunks have their vectors (embedded, or reused from the index). */
  | { kind: "embedded"; chunks: number };

/** Where events go; every emitter takes it as optional. */
export type IngestEvents = (event: IngestEvent) => void;
