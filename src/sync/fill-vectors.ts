/**
 * The second half of keyword-only mode: once a model loads, a sync embeds
 * the chunks stored without vectors, from their stored text, and writes the
 * vectors in place. No file is read or converted again, except a file with a
 * chunk the estimate cut too long for this model: it is ingested again so no
 * part of it is cut off before the encoder.
 */
import type { App } from "../app.ts";
import type { Embedder } from "../embed/embedder.ts";
import { inScope } from "../scan/scope.ts";
import type { PendingChunk } from "../store/pending-vectors.ts";

/** Chunks per embedding pass and commit, as an ingest groups them (ingest-files.ts). */
const FILL_CHUNKS = 256;

export interface FillReport {
  /** Documents whose every waiting chunk now has its vector. */
  embedded: number;
  /** Files with a chunk longer than the model takes: to be ingested again. */
  reread: string[];
  /** Other sources with such a chunk (ingest_data, URLs: there is no file to read again): embedded as far as the model reads. */
  truncated: string[];
}

/** `page`: chunks per pass (tests set it small). Sources smaller than a page share passes; a larger one is filled a page at a time. */
export async function fillVectors(app: App, embedder: Embedder, scopes: string[] | undefined, page = FILL_CHUNKS): Promise<FillReport> {
  const report: FillReport = { embedded: 0, reread: [], truncated: [] };
  const waiting = [...(await app.store.pendingSources()).entries()].filter(([source]) => inScope(source, scopes));
  let batch: string[] = [];
  let batchChunks = 0;
  for (const [i, [source, count]] of waiting.entries()) {
    if (count > page) {
      await fillLarge(app, embedder, source, count, page, report);
    } else {
      batch.push(source);
      batchChunks += count;
    }
    if (batch.length === 0 || (batchChunks < page && i < waiting.length - 1)) continue;
    await fillBatch(app, embedder, await app.store.pendingChunks(batch), report);
    batch = [];
    batchChunks = 0;
  }
  return report;
}

/**
 * One source with more waiting chunks than a page, filled a page at a time:
 * read whole, a document of 100k chunks would hold its text and its vectors
 * (150 MB at 384 dimensions) in memory at once. A filled page no longer
 * waits, so each read takes the next; the pass count is bounded, so rows a
 * concurrent writer keeps replacing are left for the next sync.
 */
async function fillLarge(app: App, embedder: Embedder, source: string, count: number, page: number, report: FillReport): Promise<void> {
  if (!(await app.store.hasTable())) return;
  let truncated = false;
  for (let pass = 0; pass <= Math.ceil(count / page); pass++) {
    const chunks = await app.store.pendingChunks([source], page);
    if (chunks.length === 0) break;
    const tooLong = chunks.some((c) => embedder.countTokens(c.text, "passage") > embedder.maxLength);
    if (tooLong && chunks[0]!.sourceType === "file") {
      // Pages already filled are replaced by the new ingest with the rest.
      report.reread.push(source);
      return;
    }
    truncated ||= tooLong;
    await writePage(app, embedder, chunks);
  }
  if (truncated) report.truncated.push(source);
  report.embedded++;
}

async function writePage(app: App, embedder: Embedder, chunks: PendingChunk[]): Promise<void> {
  const vectors = await embedder.embed(
    chunks.map((c) => c.text),
    "passage",
  );
  await app.store.fillVectors(
    embedder.dimensions,
    chunks.map((c, i) => ({ id: c.id, vector: vectors[i]! })),
  );
}

async function fillBatch(app: App, embedder: Embedder, chunks: PendingChunk[], report: FillReport): Promise<void> {
  const bySource = Map.groupBy(chunks, (c) => c.source);
  const toEmbed: PendingChunk[] = [];
  for (const [source, own] of bySource) {
    const tooLong = own.some((c) => embedder.countTokens(c.text, "passage") > embedder.maxLength);
    if (tooLong && own[0]!.sourceType === "file") {
      report.reread.push(source);
      continue;
    }
    if (tooLong) report.truncated.push(source);
    toEmbed.push(...own);
  }
  if (toEmbed.length === 0) return;
  await writePage(app, embedder, toEmbed);
  report.embedded += new Set(toEmbed.map((c) => c.source)).size;
}
