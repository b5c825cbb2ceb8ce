/**
 * Document vectors for documents stored without one: indexed before document
 * vectors existed, or in keyword-only mode and given their chunk vectors
 * since. Each is made from the stored chunks (document-openings.ts): nothing
 * is read from disk, and a one-chunk document takes its stored chunk vector
 * without embedding. Sync runs this under its lock; each batch is one commit,
 * so an interrupted run keeps what it filled and the next sync does the rest.
 */
import type { App } from "../app.ts";
import type { Embedder } from "../embed/embedder.ts";
import { embedOpenings } from "./document-openings.ts";
import { storedVectorsOf } from "./embed-passages.ts";

/** Documents per batch: one read, one embedding pass and one commit each. */
const BATCH = 200;

/** Fills every missing document vector; returns how many documents took one. */
export async function fillDocumentVectors(app: App, embedder: Embedder): Promise<number> {
  let filled = 0;
  const tried = new Set<string>();
  for (;;) {
    // Rows tried already and still without one were replaced meanwhile, and their own ingest gave them one: no loop.
    const batch = (await app.store.sourcesWithoutDocumentVector(BATCH + tried.size)).filter((b) => !tried.has(b.id)).slice(0, BATCH);
    if (batch.length === 0) return filled;
    for (const b of batch) tried.add(b.id);
    const sources = batch.map((b) => b.source);
    const rows = Map.groupBy(await app.store.mentionRows(sources), (r) => r.source);
    const docs = sources.map((source) => ({ chunkTexts: (rows.get(source) ?? []).sort((a, b) => a.chunkIndex - b.chunkIndex).map((r) => r.text) }));
    const vectors = await embedOpenings(app, embedder, storedVectorsOf(app, embedder, sources), docs);
    filled += await app.store.writeDocumentVectors(batch.map((b, i) => ({ id: b.id, vector: vectors[i]! })));
  }
}
