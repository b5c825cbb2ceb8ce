/**
 * The shared tail of every ingest: chunk the Markdown to the token budget,
 * embed the chunks, and swap them into the index in one commit.
 */
import type { App } from "../app.ts";
import { chunkDocument } from "../chunk/chunk-document.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { stripInlineImages } from "../convert/inline-images.ts";
import type { ChunkRow, SourceType } from "../store/chunk-row.ts";

export interface DocumentToIndex {
  source: string;
  sourceType: SourceType;
  markdown: string;
  title: string;
  seedTitle: boolean;
  contentHash: string;
  mtime: number;
  fileSize: number;
  ocrEngine?: string;
}

export interface IngestResult {
  source: string;
  sourceType: SourceType;
  title: string;
  chunkCount: number;
}

export async function indexMarkdown(app: App, doc: DocumentToIndex): Promise<IngestResult> {
  const embedder = await app.embedder();
  const markdown = stripInlineImages(doc.markdown);
  const { chunks } = chunkDocument(markdown, {
    title: doc.title,
    seedTitle: doc.seedTitle,
    budget: app.config.chunkTokenBudget,
    count: (t) => embedder.countTokens(t),
  });
  const vectors = await embedder.embed(chunks.map((c) => c.text));
  const ingestedAt = new Date().toISOString();
  const rows: ChunkRow[] = chunks.map((c, i) => ({
    id: `${doc.source}#${c.chunkIndex}`,
    source: doc.source,
    source_type: doc.sourceType,
    title: doc.title,
    chunk_index: c.chunkIndex,
    parent_id: `${doc.source}#p${c.parentIndex}`,
    text: c.text,
    vector: vectors[i]!,
    scheme: CHUNK_SCHEME,
    content_hash: doc.contentHash,
    mtime: doc.mtime,
    file_size: doc.fileSize,
    ingested_at: ingestedAt,
    ocr_engine: doc.ocrEngine ?? "",
  }));
  await app.store.replaceSource(doc.source, rows, embedder.dimensions);
  return { source: doc.source, sourceType: doc.sourceType, title: doc.title, chunkCount: rows.length };
}
