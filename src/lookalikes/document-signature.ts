/**
 * A document's signature from its chunks, as ingest cuts them and as the
 * index stores them: the document's text is rebuilt without the context each
 * chunk repeats (join-parent.ts), so a signature made at ingest and one made
 * later from stored rows are the same.
 */
import { joinDocument, type JoinChunk } from "../chunk/join-parent.ts";
import { encodeSignature, minhash, minhashInSlices } from "./minhash.ts";
import { shingleHashes, shingleHashesInSlices } from "./shingles.ts";

/** The stored form of the signature of the document these chunks (in order) make up. */
export function documentSignature(chunks: JoinChunk[]): string {
  return encodeSignature(minhash(shingleHashes(joinDocument(chunks))));
}

/** documentSignature in slices (slices.ts), for a server that must answer while a large document is stored. */
export async function documentSignatureInSlices(chunks: JoinChunk[]): Promise<string> {
  return encodeSignature(await minhashInSlices(await shingleHashesInSlices(joinDocument(chunks))));
}
