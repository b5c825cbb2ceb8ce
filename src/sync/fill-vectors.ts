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

export async function fillVectors(app: App, embedder: Embedder, scopes: string[] | undefined): Promise<FillReport> {
  const report: FillReport = { embedded: 0, reread: [], truncated: [] };
  const waiting = [...(await app.store.pendingSources()).entries()].filter(([source]) => inScope(source, scopes));
  let batch: string[] = [];
  let batchChunks = 0;
  for (const [i, [source, count]] of waiting.entries()) {
    batch.push(source);
    batchChunks += count;
    if (batchChunks < FILL_CHUNKS && i < waiting.length - 1) continue;
    await fillBatch(app, embedder, await app.store.pendingChunks(batch), report);
    batch = [];
    batchChunks = 0;
  }
  return report;
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
  const vectors = await embedder.embed(
    toEmbed.map((c) => c.text),
    "passage",
  );
  await app.store.fillVectors(
    embedder.dimensions,
    toEmbed.map((c, i) => ({ id: c.id, vector: vectors[i]! })),
  );
  report.embedded += new Set(toEmbed.map((c) => c.source)).size;
}
