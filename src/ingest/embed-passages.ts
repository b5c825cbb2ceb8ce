/**
 * Embeds a batch of chunk texts, embedding each distinct text once and not
 * at all where the document being replaced already holds it: an edit to one
 * paragraph of a long document re-embeds the chunks it changed, a log file
 * that grew re-embeds its new tail, and a folder holding several versions of
 * a document embeds their shared chunks once per batch. The model dominates
 * ingest time (sync runs within 6-15% of the model alone), so every text not
 * embedded is time saved.
 */
import type { App } from "../app.ts";
import type { Embedder } from "../embed/embedder.ts";
import type { IndexModel } from "../store/index-identity.ts";
import { storedTextIds, storedVectorsFor, textKey, vectorsByIds } from "../store/stored-vectors.ts";
import { timed } from "./ingest-metrics.ts";

/** The stored vectors for some of a batch's texts, by text. */
export type StoredVectors = (texts: string[]) => Promise<Map<string, Float32Array>>;

/** What the index must record for its vectors to be this embedder's (as app.ts binds the store to it). */
function modelOf(embedder: Embedder): IndexModel {
  return { name: embedder.modelName, fingerprint: embedder.fingerprint, dimensions: embedder.dimensions, ...embedder.profile };
}

/** For documents written in one commit: the stored vectors of the sources they replace, for a batch's texts. */
export function storedVectorsOf(app: App, embedder: Embedder, sources: string[]): StoredVectors {
  return (texts) => storedVectorsFor(app.store, sources, texts, modelOf(embedder));
}

/**
 * For a document written in batches (store-large-document.ts): its old
 * chunks' texts are indexed once by key, and each batch fetches only the
 * vectors it can use, so memory holds one batch's vectors, not the document's.
 */
export async function storedVectorsOfLarge(app: App, embedder: Embedder, source: string): Promise<StoredVectors> {
  const model = modelOf(embedder);
  const ids = await storedTextIds(app.store, source, model);
  return async (texts) => {
    const wanted = new Set<string>();
    for (const text of texts) {
      const id = ids.get(textKey(text));
      if (id) wanted.add(id);
    }
    return vectorsByIds(app.store, source, [...wanted], model);
  };
}

/** One vector per text, in order: a stored one where `stored` has the text, else the model's. onEmbedded hears how many texts have theirs, as they do. */
export async function embedPassages(app: App, embedder: Embedder, stored: StoredVectors, texts: string[], onEmbedded?: (texts: number) => void): Promise<Float32Array[]> {
  const kept = await stored(texts);
  const slot = new Map<string, number>();
  const fresh: string[] = [];
  for (const text of texts) {
    if (kept.has(text) || slot.has(text)) continue;
    slot.set(text, fresh.length);
    fresh.push(text);
  }
  if (app.metrics) {
    app.metrics.embedGroups.push(fresh);
    app.metrics.reusedVectors += texts.length - fresh.length;
  }
  // A text repeated in the batch is embedded once and counted with its first copy's batch.
  if (onEmbedded && texts.length > fresh.length) onEmbedded(texts.length - fresh.length);
  const vectors = fresh.length === 0 ? [] : await timed(app.metrics, "embedMs", () => embedder.embed(fresh, "passage", onEmbedded));
  return texts.map((text) => kept.get(text) ?? vectors[slot.get(text)!]!);
}
