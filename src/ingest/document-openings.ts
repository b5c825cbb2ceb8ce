/**
 * A document's own vector, beside its chunks' (search/document-evidence.ts
 * says how it ranks): the model's reading of the document's opening, its
 * chunks' texts in order, joined, up to OPENING_CHARS, of which the model
 * reads what it takes (512 tokens for e5, where a chunk holds 200; a model
 * that reads more than about 1,500 tokens gets the first 6,000 characters). A short document is one chunk, and its
 * opening is that chunk's text: its chunk's vector serves and nothing more is
 * embedded. The opening is made from chunks, not from the file, so a sync can
 * fill an index built before document vectors from its stored text alone.
 * Stored normalised, so ranking by it is a dot product.
 */
import type { App } from "../app.ts";
import type { Embedder } from "../embed/embedder.ts";
import { normalised } from "../embed/unit-length.ts";
import { embedPassages, type StoredVectors } from "./embed-passages.ts";

/** Characters of the joined chunks handed to the model: past 512 tokens in any language, so the model's own cut decides. */
export const OPENING_CHARS = 6000;

/** The opening of a document whose chunk texts are these, in order. */
export function openingText(chunkTexts: readonly string[]): string {
  let text = "";
  for (const chunk of chunkTexts) {
    text = text ? `${text}\n\n${chunk}` : chunk;
    if (text.length >= OPENING_CHARS) break;
  }
  return text.length > OPENING_CHARS ? text.slice(0, OPENING_CHARS) : text;
}

/** A document's chunk texts, and the vectors they were given (in the same order) where the caller has them. */
export interface OpeningSource {
  chunkTexts: readonly string[];
  chunkVectors?: readonly Float32Array[];
}

/**
 * One normalised document vector per document, in order. A document whose
 * opening is its first chunk's text takes that chunk's vector; the other
 * openings are embedded in one pass (a stored chunk of the same text serves
 * too, through `stored`).
 */
export async function embedOpenings(app: App, embedder: Embedder, stored: StoredVectors, docs: readonly OpeningSource[]): Promise<Float32Array[]> {
  const openings = docs.map((d) => openingText(d.chunkTexts));
  const fresh = openings.map((text, i) => (text === docs[i]!.chunkTexts[0] && docs[i]!.chunkVectors?.[0] ? null : text));
  const wanted = fresh.filter((t): t is string => t !== null);
  const vectors = wanted.length ? await embedPassages(app, embedder, stored, wanted) : [];
  let next = 0;
  return docs.map((d, i) => normalised(fresh[i] === null ? d.chunkVectors![0]! : vectors[next++]!));
}
