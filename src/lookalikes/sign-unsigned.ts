/**
 * Signatures for documents indexed before signatures existed, made from
 * their stored chunks: nothing is read from disk or embedded again. Sync runs
 * this under its lock; each batch is one commit, so an interrupted run keeps
 * what it signed and the next sync signs the rest.
 */
import type { ChunkStore } from "../store/chunk-store.ts";
import { slices } from "../slices.ts";
import { documentSignatureInSlices } from "./document-signature.ts";

/** Sources per batch: one read and one commit each. */
const BATCH = 200;

/** Signs every unsigned source; returns how many were signed. */
export async function signUnsigned(store: ChunkStore): Promise<number> {
  if (!(await store.hasTable())) return 0;
  await store.ensureSignatureColumn();
  let signed = 0;
  const tried = new Set<string>();
  for (;;) {
    // Rows tried already and still unsigned were replaced meanwhile and will be signed by their own ingest; they do not loop.
    const batch = (await store.unsignedSources(BATCH + tried.size)).filter((b) => !tried.has(b.id)).slice(0, BATCH);
    if (batch.length === 0) return signed;
    for (const b of batch) tried.add(b.id);
    const rows = Map.groupBy(await store.mentionRows(batch.map((b) => b.source)), (r) => r.source);
    // In slices: a watched sync in the server signs an old index's documents while questions come in (200 of 133 kB took 7 s).
    const work = slices();
    const updates: { id: string; minhash: string }[] = [];
    for (const { source, id } of batch) {
      const chunks = (rows.get(source) ?? []).sort((a, b) => a.chunkIndex - b.chunkIndex);
      updates.push({ id, minhash: await documentSignatureInSlices(chunks, work) });
    }
    signed += await store.writeSignatures(updates);
  }
}
