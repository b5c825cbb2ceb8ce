/**
 * Document vectors for documents stored without one: indexed before document
 * vectors existed, or in keyword-only mode and given their chunk vectors
 * since. Each is made from the stored chunks (document-openings.ts): only a
 * document's first chunks are read, nothing from disk, and a one-chunk
 * document takes its stored chunk vector without embedding. Sync runs this
 * under its lock; each batch is one commit, so an interrupted run keeps what
 * it filled and the next sync does the rest.
 */
import type { App } from "../app.ts";
import type { Embedder } from "../embed/embedder.ts";
import type { OpeningChunks } from "../store/document-vectors.ts";
import { embedOpenings, OPENING_CHARS } from "./document-openings.ts";

/** Documents per batch: one read, one embedding pass and one commit each. */
const BATCH = 200;
/** Chunks read per document at first: 200-token chunks fill an opening in about eight; smaller budgets read on. */
const FIRST_CHUNKS = 16;

/** The first chunks of each source, enough of them for its opening: sources whose first `count` fell short are read again with more. */
async function openingChunks(app: App, sources: string[]): Promise<Map<string, OpeningChunks>> {
  const found = new Map<string, OpeningChunks>();
  let wanted = sources;
  for (let count = FIRST_CHUNKS; wanted.length > 0; count *= 4) {
    const read = await app.store.openingChunks(wanted, count);
    for (const [source, chunks] of read) found.set(source, chunks);
    wanted = wanted.filter((s) => {
      const texts = read.get(s)?.texts ?? [];
      return texts.length === count && texts.join("\n\n").length < OPENING_CHARS;
    });
  }
  return found;
}

/** Fills every missing document vector; returns how many documents took one. */
export async function fillDocumentVectors(app: App, embedder: Embedder): Promise<number> {
  let filled = 0;
  const tried = new Set<string>();
  for (;;) {
    // Rows tried already and still without one were replaced meanwhile, and their own ingest gave them one: no loop.
    const batch = (await app.store.sourcesWithoutDocumentVector(BATCH + tried.size)).filter((b) => !tried.has(b.id)).slice(0, BATCH);
    if (batch.length === 0) return filled;
    for (const b of batch) tried.add(b.id);
    const chunks = await openingChunks(app, batch.map((b) => b.source));
    const docs = batch.map((b) => {
      const read = chunks.get(b.source);
      return { chunkTexts: read?.texts ?? [], chunkVectors: read?.firstVector ? [read.firstVector] : [] };
    });
    // Nothing stored is looked up by text: chunk 0's own vector is the only one an opening can reuse, and it is read above.
    const vectors = await embedOpenings(app, embedder, async () => new Map(), docs);
    filled += await app.store.writeDocumentVectors(batch.map((b, i) => ({ id: b.id, vector: vectors[i]! })));
  }
}
