/**
 * A document's signature from its chunks, as ingest cuts them and as the
 * index stores them: the document's text is rebuilt without the context each
 * chunk repeats (join-parent.ts), so a signature made at ingest and one made
 * later from stored rows are the same.
 */
import { joinDocument, type JoinChunk } from "../chunk/join-parent.ts";
import { inSlices, runToEnd, slices, type Slices } from "../slices.ts";
import { encodeSignature, minhashSteps } from "./minhash.ts";
import { shingleSteps } from "./shingles.ts";

/** The stored form of the signature of the document these chunks (in order) make up. */
export function documentSignature(chunks: JoinChunk[]): string {
  return encodeSignature(runToEnd(signatureSteps(joinDocument(chunks))));
}

/**
 * documentSignature in slices (slices.ts), for a server that must answer while
 * a large document is stored. A caller signing many documents passes its one
 * `work`, so the slices' clock runs across them, not afresh for each.
 */
export async function documentSignatureInSlices(chunks: JoinChunk[], work: Slices = slices()): Promise<string> {
  return encodeSignature(await textSignatureInSlices(joinDocument(chunks), work));
}

/** A text's slots, not yet in their stored form: a streamed document's signature is the least of its batches' (store-large-document.ts). */
export function textSignatureInSlices(text: string, work: Slices = slices()): Promise<Uint32Array> {
  return inSlices(signatureSteps(text), work);
}

function* signatureSteps(text: string): Generator<void, Uint32Array> {
  return yield* minhashSteps(yield* shingleSteps(text));
}
