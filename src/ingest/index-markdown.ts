/**
 * The shared tail of every ingest, in two steps so that a batch can span
 * documents: prepare (chunk to the token budget) and store (embed every
 * chunk of the batch at once, then swap all their sources in one commit,
 * which is atomic per source).
 */
import type { App } from "../app.ts";
import { chunkDocument, type ChunkDraft } from "../chunk/chunk-document.ts";
import { chunkBudget } from "../config/chunk-budget.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { stripInlineImages } from "../convert/inline-images.ts";
import type { Embedder } from "../embed/embedder.ts";
import type { ChunkRow, SourceType } from "../store/chunk-row.ts";
import { documentSignature } from "../lookalikes/document-signature.ts";
import { chunkPages, type PageStart } from "./chunk-pages.ts";
import { timed } from "./ingest-metrics.ts";

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
  /** A PDF's page map: where each page starts in `markdown`. */
  pages?: PageStart[];
}

export interface PreparedDocument extends Omit<DocumentToIndex, "markdown" | "seedTitle" | "pages"> {
  /** What the converter could read only in part, reported with the file. */
  warnings?: string[];
  /** `pages` is "12" or "12-13" where a PDF chunk's page is certain. */
  chunks: (ChunkDraft & { pages?: string })[];
}

export interface IngestResult {
  source: string;
  sourceType: SourceType;
  title: string;
  chunkCount: number;
}

export async function prepareDocument(app: App, embedder: Embedder, doc: DocumentToIndex): Promise<PreparedDocument> {
  const { markdown, seedTitle, pages, ...rest } = doc;
  const { chunks } = await timed(app.metrics, "chunkMs", () =>
    chunkDocument(stripInlineImages(markdown), {
      title: doc.title,
      seedTitle,
      budget: chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength }),
      count: (t) => embedder.countTokens(t, "passage"),
    }),
  );
  if (!pages) return { ...rest, chunks };
  const labels = chunkPages(markdown, pages, chunks);
  return { ...rest, chunks: chunks.map((c, i) => (labels[i] ? { ...c, pages: labels[i] } : c)) };
}

/** Embeds and stores prepared documents: one embedding pass, one commit. */
export async function storeDocuments(app: App, embedder: Embedder, docs: PreparedDocument[]): Promise<IngestResult[]> {
  if (docs.length === 0) return [];
  const texts = docs.flatMap((d) => d.chunks.map((c) => c.text));
  app.metrics?.embedGroups.push(texts);
  const vectors = await timed(app.metrics, "embedMs", () => embedder.embed(texts, "passage"));
  const ingestedAt = new Date().toISOString();
  let next = 0;
  const rows: ChunkRow[] = docs.flatMap((doc) => {
    // Stored on chunk 0 in the same commit as the chunks (store/signatures.ts).
    const minhash = documentSignature(doc.chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines })));
    return doc.chunks.map((c) => ({
      id: `${doc.source}#${c.chunkIndex}`,
      source: doc.source,
      source_type: doc.sourceType,
      title: doc.title,
      chunk_index: c.chunkIndex,
      parent_id: `${doc.source}#p${c.parentIndex}`,
      text: c.text,
      vector: vectors[next++]!,
      scheme: CHUNK_SCHEME,
      content_hash: doc.contentHash,
      mtime: doc.mtime,
      file_size: doc.fileSize,
      ingested_at: ingestedAt,
      ocr_engine: doc.ocrEngine ?? "",
      context_lines: c.contextLines,
      pages: c.pages ?? null,
      minhash: c.chunkIndex === 0 ? minhash : null,
    }));
  });
  await timed(app.metrics, "storeMs", () => app.store.replaceSources(docs.map((d) => d.source), rows, embedder.dimensions));
  return docs.map((d) => ({ source: d.source, sourceType: d.sourceType, title: d.title, chunkCount: d.chunks.length }));
}

export async function indexMarkdown(app: App, doc: DocumentToIndex): Promise<IngestResult> {
  const embedder = await app.embedder();
  const [result] = await storeDocuments(app, embedder, [await prepareDocument(app, embedder, doc)]);
  return result!;
}
