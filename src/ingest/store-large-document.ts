/**
 * Embedding and storing one document too large for a single commit, in
 * batches of STAGED_BATCH_CHUNKS: memory holds one batch's vectors and rows,
 * not the document's. The batches are written as a staged source
 * (store/staged-source.ts), so readers still see the old chunks or the new
 * ones, never a mix. The next batch embeds while the previous one is written.
 */
import type { App } from "../app.ts";
import type { Embedder } from "../embed/embedder.ts";
import { NoModel } from "../embed/no-model.ts";
import { labelProblemField, labelsForIngest } from "../labels/ingest-labels.ts";
import { labelContext } from "../labels/labeller.ts";
import { joinDocument } from "../chunk/join-parent.ts";
import { documentSignatureInSlices, textSignatureInSlices } from "../lookalikes/document-signature.ts";
import { encodeSignature } from "../lookalikes/minhash.ts";
import type { ChunkRow } from "../store/chunk-row.ts";
import { beginStagedSource } from "../store/staged-source.ts";
import { chunkRow, type IngestResult, type PreparedDocument, type RowContext } from "./index-markdown.ts";
import { embedPassages, storedVectorsOfLarge } from "./embed-passages.ts";
import { embedOpenings } from "./document-openings.ts";
import { timed } from "./ingest-metrics.ts";
import type { IngestEvents } from "./ingest-progress.ts";

/**
 * Past this many chunks a document is written in batches. One commit of 4,096
 * rows carries about 10 MB through the merge (vector 1.5 kB, text twice, ids),
 * so below it the single swap stays as cheap as it was.
 */
export const LARGE_DOCUMENT_CHUNKS = 4096;
/** Rows per staged commit: large enough that a 100 MB file makes a few hundred fragments, not thousands. */
export const STAGED_BATCH_CHUNKS = 2048;

/** A document too large to chunk in one pass: its chunks come window by window (chunk/chunk-windows.ts) as it is stored. */
export interface StreamedDocument extends Omit<PreparedDocument, "chunks"> {
  windows: AsyncIterable<PreparedDocument["chunks"]>;
}

type Chunks = PreparedDocument["chunks"];

/** The chunks in batches of at most `size`. */
async function* batches(doc: PreparedDocument | StreamedDocument, size: number): AsyncGenerator<Chunks> {
  for await (const window of "windows" in doc ? doc.windows : [doc.chunks]) {
    for (let start = 0; start < window.length; start += size) yield window.slice(start, start + size);
  }
}

const joinable = (chunks: Chunks) => chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines }));

/**
 * Stores `doc` in batches of `batchChunks` rows (a parameter so tests can cut a small document into several).
 * events hears of chunks as they are embedded and, for a streamed document, as its windows are cut.
 */
export async function storeLargeDocument(app: App, embedder: Embedder | NoModel, doc: PreparedDocument | StreamedDocument, batchChunks = STAGED_BATCH_CHUNKS, events?: IngestEvents): Promise<IngestResult> {
  const none = embedder instanceof NoModel ? embedder : null;
  const dimensions = none ? ((await app.store.vectorWidth()) ?? none.guessDimensions()) : (embedder as Embedder).dimensions;
  // Read before the staged write begins; during it the store reads the same version anyway (staged-source.ts).
  const stored = none ? null : await storedVectorsOfLarge(app, embedder as Embedder, doc.source);
  const onEmbedded = events && ((chunks: number) => events({ kind: "embedded", chunks }));
  const embed = async (chunks: Chunks) => {
    const texts = chunks.map((c) => c.text);
    if (none) {
      onEmbedded?.(texts.length);
      return texts.map(() => new Float32Array(dimensions));
    }
    return embedPassages(app, embedder as Embedder, stored!, texts, onEmbedded);
  };
  // A streamed document's chunks are known only as its windows are cut; a prepared one's were counted by the caller.
  const streamed = "windows" in doc;
  const pending = batches(doc, batchChunks);
  try {
    const first = await pending.next();
    const firstChunks = first.done ? [] : first.value;
    // Labels read the text; a streamed document's is read from its first batch.
    const labelled = await labelsForIngest(app, labelContext(app, app.log), [{ ...doc, chunks: "windows" in doc ? firstChunks : doc.chunks }]);
    const ctx: RowContext = { ingestedAt: new Date().toISOString(), minhash: "", labels: labelled.get(doc.source), pending: none !== null, docVector: null };
    // The signature is the minimum over the document's shingles, so it is gathered batch by batch (shingles that
    // straddle two batches are left out), and chunk 0, which carries it, is written last.
    const exact = "windows" in doc ? null : await documentSignatureInSlices(joinable(doc.chunks));
    let signature: Uint32Array | null = null;
    let chunkZero: ChunkRow | null = null;
    let count = 0;

    const staged = await beginStagedSource(app.store, doc.source, dimensions);
    let writing: Promise<void> = Promise.resolve();
    try {
      for (let chunks = firstChunks; chunks.length > 0; ) {
        if (streamed) events?.({ kind: "chunks", path: doc.source, chunks: chunks.length, final: false });
        const vectors = await embed(chunks);
        // The document's own vector is read from its opening, which the first batch holds (thousands of chunks).
        if (!none && app.config.documentVectors && chunks[0]?.chunkIndex === 0) {
          ctx.docVector = (await embedOpenings(app, embedder as Embedder, stored!, [{ chunkTexts: chunks.map((c) => c.text), chunkVectors: vectors }]))[0]!;
        }
        if (!exact) {
          const part = await textSignatureInSlices(joinDocument(joinable(chunks)));
          signature = signature ? signature.map((v, i) => Math.min(v, part[i]!)) : part;
        }
        const rows = chunks.map((c, i) => chunkRow(doc as PreparedDocument, c, vectors[i]!, ctx));
        if (rows[0]?.chunk_index === 0) chunkZero = rows.shift()!;
        count += chunks.length;
        const next = await pending.next();
        chunks = next.done ? [] : next.value;
        if (chunks.length === 0 && chunkZero) {
          chunkZero.minhash = exact ?? encodeSignature(signature!);
          rows.push(chunkZero);
        }
        await writing; // at most one batch is written while the next embeds
        // A full collection per batch (tens of ms against seconds of embedding): left to itself the heap kept
        // every batch's vectors and row strings, and a 100 MB file's sync grew past 2 GB.
        Bun.gc(true);
        writing = rows.length ? timed(app.metrics, "storeMs", () => staged.add(rows)) : Promise.resolve();
      }
      await writing;
      if (streamed) events?.({ kind: "chunks", path: doc.source, chunks: 0, final: true });
      await timed(app.metrics, "storeMs", () => staged.commit());
    } catch (error) {
      await writing.catch(() => {});
      await staged.abort().catch(() => {});
      throw error;
    }
    return { source: doc.source, sourceType: doc.sourceType, title: doc.title, chunkCount: count, ...labelProblemField(labelled.get(doc.source)), ...(none && { notice: none.describe() }) };
  } finally {
    // A streamed document's file is open until its windows end: closed now, whether they ended, a write failed or
    // the index refused the write before it began.
    await pending.return(undefined);
  }
}
