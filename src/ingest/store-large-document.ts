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
import { documentSignature } from "../lookalikes/document-signature.ts";
import { beginStagedSource } from "../store/staged-source.ts";
import { chunkRow, type IngestResult, type PreparedDocument } from "./index-markdown.ts";
import { timed } from "./ingest-metrics.ts";

/**
 * Past this many chunks a document is written in batches. One commit of 4,096
 * rows carries about 10 MB through the merge (vector 1.5 kB, text twice, ids),
 * so below it the single swap stays as cheap as it was.
 */
export const LARGE_DOCUMENT_CHUNKS = 4096;
/** Rows per staged commit: large enough that a 100 MB file makes a few hundred fragments, not thousands. */
export const STAGED_BATCH_CHUNKS = 2048;

/** Stores `doc` in batches of `batchChunks` rows (a parameter so tests can cut a small document into several). */
export async function storeLargeDocument(app: App, embedder: Embedder | NoModel, doc: PreparedDocument, batchChunks = STAGED_BATCH_CHUNKS): Promise<IngestResult> {
  const none = embedder instanceof NoModel ? embedder : null;
  const dimensions = none ? ((await app.store.vectorWidth()) ?? none.guessDimensions()) : (embedder as Embedder).dimensions;
  const labelled = await labelsForIngest(app, labelContext(app.config, app.log), [doc]);
  const ctx = {
    ingestedAt: new Date().toISOString(),
    minhash: documentSignature(doc.chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines }))),
    labels: labelled.get(doc.source),
    pending: none !== null,
  };
  const embed = async (chunks: PreparedDocument["chunks"]) => {
    const texts = chunks.map((c) => c.text);
    if (none) return texts.map(() => new Float32Array(dimensions));
    app.metrics?.embedGroups.push(texts);
    return timed(app.metrics, "embedMs", () => (embedder as Embedder).embed(texts, "passage"));
  };

  const staged = await beginStagedSource(app.store, doc.source, dimensions);
  let writing: Promise<void> = Promise.resolve();
  try {
    for (let start = 0; start < doc.chunks.length; start += batchChunks) {
      const chunks = doc.chunks.slice(start, start + batchChunks);
      const vectors = await embed(chunks);
      await writing; // at most one batch is written while the next embeds
      const rows = chunks.map((c, i) => chunkRow(doc, c, vectors[i]!, ctx));
      writing = timed(app.metrics, "storeMs", () => staged.add(rows));
    }
    await writing;
    await timed(app.metrics, "storeMs", () => staged.commit());
  } catch (error) {
    await writing.catch(() => {});
    await staged.abort().catch(() => {});
    throw error;
  }
  return { source: doc.source, sourceType: doc.sourceType, title: doc.title, chunkCount: doc.chunks.length, ...labelProblemField(labelled.get(doc.source)), ...(none && { notice: none.describe() }) };
}
