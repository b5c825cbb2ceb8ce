/**
 * The shared tail of every ingest, in two steps so that a batch can span
 * documents: prepare (chunk to the token budget) and store (embed every
 * chunk of the batch at once, then swap all their sources in one commit,
 * which is atomic per source).
 */
import type { App } from "../app.ts";
import { chunkDocumentInSlices, normalizeLineBreaks, type ChunkDraft } from "../chunk/chunk-document.ts";
import { chunkBudget } from "../config/chunk-budget.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { stripInlineImages } from "../convert/inline-images.ts";
import type { Embedder } from "../embed/embedder.ts";
import { NoModel } from "../embed/no-model.ts";
import type { ChunkRow, SourceType } from "../store/chunk-row.ts";
import { documentSignatureInSlices } from "../lookalikes/document-signature.ts";
import { labelColumnsFor, labelProblemField, labelsForIngest, type IngestLabels } from "../labels/ingest-labels.ts";
import { labelContext } from "../labels/labeller.ts";
import { chunkPages, type PageStart } from "./chunk-pages.ts";
import { embedPassages, storedVectorsOf } from "./embed-passages.ts";
import { openingText } from "./document-openings.ts";
import { normalised } from "../embed/unit-length.ts";
import { encodeDocumentVector } from "../store/document-vectors.ts";
import { timed } from "./ingest-metrics.ts";
import { slices } from "../slices.ts";
import { linkShare } from "../text/link-share.ts";
import { navigationShare, outlineKeys } from "../text/contents-share.ts";
import { ownText } from "../chunk/own-text.ts";

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
  /**
   * `pages` is "12" or "12-13" where a PDF chunk's page is certain;
   * `navigation` the share of its own text that points elsewhere (link_share),
   * where the whole document was at hand to tell its contents entries.
   */
  chunks: (ChunkDraft & { pages?: string; navigation?: number })[];
}

export interface IngestResult {
  source: string;
  sourceType: SourceType;
  title: string;
  chunkCount: number;
  /** With a classify.toml: what the document was stored without (a model label, a readable taxonomy), and why. */
  labelProblem?: string;
  /** Set when the chunks were stored without vectors (keyword-only mode): why, and what fills them in. */
  notice?: string;
}

/** What chunking needs of a model: its own token count, or NoModel's estimate. */
export type TokenCounter = Pick<Embedder, "modelName" | "maxLength" | "countTokens">;

/**
 * The document as the index keeps it, and read_file gives it back: the
 * converter's Markdown with line breaks as `\n` and inlined `data:` pictures
 * as their alt text.
 */
export function documentText(markdown: string): string {
  // Only a document with inlined pictures pays for stripping them (a line-by-line copy of the whole text).
  return normalizeLineBreaks(/\]\(\s*data:/.test(markdown) ? stripInlineImages(markdown) : markdown);
}

export async function prepareDocument(app: App, embedder: TokenCounter, doc: DocumentToIndex): Promise<PreparedDocument> {
  const { markdown, seedTitle, pages, ...rest } = doc;
  const text = documentText(markdown);
  // In slices: a server answers between a large document's sections (slices.ts).
  const { chunks } = await timed(app.metrics, "chunkMs", () =>
    chunkDocumentInSlices(text, {
      title: doc.title,
      seedTitle,
      budget: chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength }),
      count: (t) => embedder.countTokens(t, "passage"),
    }),
  );
  const keys = outlineKeys(text);
  const shared = chunks.map((c) => ({ ...c, navigation: navigationShare(ownText(c.text, c.contextLines), keys) }));
  // The page map's offsets are the converter's: a document whose inlined pictures were replaced has none that fit.
  if (!pages || text !== markdown) return { ...rest, chunks: shared };
  const labels = chunkPages(pages, shared);
  return { ...rest, chunks: shared.map((c, i) => (labels[i] ? { ...c, pages: labels[i] } : c)) };
}

/** Prepared documents with a vector for each chunk, ready for their commit (writeDocuments). */
export interface EmbeddedDocuments {
  docs: PreparedDocument[];
  vectors: Float32Array[];
  /** Each document's own vector (document-openings.ts); null in keyword-only mode. */
  docVectors: (Float32Array | null)[];
  dimensions: number;
  /** Keyword-only mode: the vectors are placeholders, and why. */
  none: NoModel | null;
}

/** One embedding pass over every chunk of the documents; onEmbedded hears of the chunks that have their vectors, batch by batch. */
export async function embedDocuments(app: App, embedder: Embedder | NoModel, docs: PreparedDocument[], onEmbedded?: (chunks: number) => void): Promise<EmbeddedDocuments> {
  const texts = docs.flatMap((d) => d.chunks.map((c) => c.text));
  // Keyword-only mode: placeholder zeros of the table's width, marked as waiting (store/pending-vectors.ts).
  const none = embedder instanceof NoModel ? embedder : null;
  const dimensions = none ? ((await app.store.vectorWidth()) ?? none.guessDimensions()) : (embedder as Embedder).dimensions;
  if (none) {
    onEmbedded?.(texts.length);
    return { docs, vectors: texts.map(() => new Float32Array(dimensions)), docVectors: docs.map(() => null), dimensions, none };
  }
  // One pass over the chunks and the documents' openings (document-openings.ts): a one-chunk document's opening
  // is its chunk's text, which embedPassages embeds once. Progress counts the chunks alone.
  const openings = app.config.documentVectors ? docs.map((d) => openingText(d.chunks.map((c) => c.text))) : [];
  const stored = storedVectorsOf(app, embedder as Embedder, docs.map((d) => d.source));
  const all = await embedPassages(app, embedder as Embedder, stored, [...texts, ...openings], onEmbedded && chunksOnly(texts.length, onEmbedded));
  const docVectors = app.config.documentVectors ? all.slice(texts.length).map(normalised) : docs.map(() => null);
  return { docs, vectors: all.slice(0, texts.length), docVectors, dimensions, none };
}

/** Progress for a pass that embeds `chunks` chunks and then more (openings): it hears of at most the chunks. */
function chunksOnly(chunks: number, onEmbedded: (texts: number) => void): (texts: number) => void {
  let heard = 0;
  return (texts) => {
    const counted = Math.min(texts, chunks - heard);
    heard += counted;
    if (counted > 0) onEmbedded(counted);
  };
}

/** Swaps the embedded documents' sources in, in one commit. */
export async function writeDocuments(app: App, { docs, vectors, docVectors, dimensions, none }: EmbeddedDocuments): Promise<IngestResult[]> {
  // Labels and date go on chunk 0 in the same commit (store/label-rows.ts); nothing happens without a classify.toml.
  const labelled = await labelsForIngest(app, labelContext(app, app.log), docs);
  const ingestedAt = new Date().toISOString();
  let next = 0;
  const rows: ChunkRow[] = [];
  const work = slices();
  for (const [d, doc] of docs.entries()) {
    // Stored on chunk 0 in the same commit as the chunks (store/signatures.ts).
    const minhash = await documentSignatureInSlices(doc.chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines })), work);
    for (const c of doc.chunks) rows.push(chunkRow(doc, c, vectors[next++]!, { ingestedAt, minhash, labels: labelled.get(doc.source), pending: none !== null, docVector: docVectors[d]! }));
  }
  await timed(app.metrics, "storeMs", () => app.store.replaceSources(docs.map((d) => d.source), rows, dimensions));
  return docs.map((d) => ({ source: d.source, sourceType: d.sourceType, title: d.title, chunkCount: d.chunks.length, ...labelProblemField(labelled.get(d.source)), ...(none && { notice: none.describe() }) }));
}

/** Embeds and stores prepared documents: one embedding pass, one commit. */
export async function storeDocuments(app: App, embedder: Embedder | NoModel, docs: PreparedDocument[]): Promise<IngestResult[]> {
  if (docs.length === 0) return [];
  return writeDocuments(app, await embedDocuments(app, embedder, docs));
}

/** What every row of one document shares beside its chunk: see chunkRow. */
export interface RowContext {
  ingestedAt: string;
  /** The document's look-alike signature, stored on chunk 0. */
  minhash: string;
  labels: IngestLabels | undefined;
  pending: boolean;
  /** The document's own vector (document-openings.ts), stored on chunk 0; null in keyword-only mode. */
  docVector: Float32Array | null;
}

/** One stored row of a prepared document's chunk (also used by ingest/store-large-document.ts, which writes in batches). */
export function chunkRow(doc: PreparedDocument, c: PreparedDocument["chunks"][number], vector: Float32Array, ctx: RowContext): ChunkRow {
  return {
    id: `${doc.source}#${c.chunkIndex}`,
    source: doc.source,
    source_type: doc.sourceType,
    title: doc.title,
    chunk_index: c.chunkIndex,
    parent_id: `${doc.source}#p${c.parentIndex}`,
    text: c.text,
    vector,
    scheme: CHUNK_SCHEME,
    content_hash: doc.contentHash,
    mtime: doc.mtime,
    file_size: doc.fileSize,
    ingested_at: ctx.ingestedAt,
    ocr_engine: doc.ocrEngine ?? "",
    context_lines: c.contextLines,
    pages: c.pages ?? null,
    minhash: c.chunkIndex === 0 ? ctx.minhash : null,
    doc_vector: c.chunkIndex === 0 && ctx.docVector ? encodeDocumentVector(ctx.docVector) : null,
    // A streamed large document's windows carry no contents shares: their links still count.
    link_share: (c.navigation ?? linkShare(ownText(c.text, c.contextLines))) || null,
    ...labelColumnsFor(ctx.labels, c.chunkIndex),
    vector_pending: ctx.pending,
  };
}

export async function indexMarkdown(app: App, doc: DocumentToIndex): Promise<IngestResult> {
  const embedder = await app.embedderOrNone();
  const [result] = await storeDocuments(app, embedder, [await prepareDocument(app, embedder, doc)]);
  return result!;
}
