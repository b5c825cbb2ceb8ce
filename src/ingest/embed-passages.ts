/**
 * Embeds a batch of chunk texts, embedding each distinct text once and not
 * at all where the sources being replaced already hold it: an edit to one
 * paragraph of a long document re-embeds the chunks it changed, and a folder
 * holding several versions of a document embeds their shared chunks once per
 * batch. The model dominates ingest time (sync runs within 6-15% of the model
 * alone), so every text not embedded is time saved.
 */
import type { App } from "../app.ts";
import type { Embedder } from "../embed/embedder.ts";
import { timed } from "./ingest-metrics.ts";

/** One vector per text, in order; `sources` are the documents these texts replace (their stored chunks are the reusable ones). */
export async function embedPassages(app: App, embedder: Embedder, sources: string[], texts: string[]): Promise<Float32Array[]> {
  const stored = await app.store.storedVectors(sources, embedder.dimensions);
  const slot = new Map<string, number>();
  const fresh: string[] = [];
  for (const text of texts) {
    if (stored.has(text) || slot.has(text)) continue;
    slot.set(text, fresh.length);
    fresh.push(text);
  }
  if (app.metrics) {
    app.metrics.embedGroups.push(fresh);
    app.metrics.reusedVectors += texts.length - fresh.length;
  }
  const vectors = fresh.length === 0 ? [] : await timed(app.metrics, "embedMs", () => embedder.embed(fresh, "passage"));
  return texts.map((text) => stored.get(text) ?? vectors[slot.get(text)!]!);
}
