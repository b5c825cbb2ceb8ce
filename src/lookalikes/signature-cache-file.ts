/**
 * The look-alike signatures of one index version kept on disk between
 * processes. Every process that answers with look-alikes (a CLI `find` or
 * `query`, a server's warm-up) otherwise reads every signature from the
 * table: 60-90 ms of a new process's first find at 10,000 documents, 250 ms
 * at 30,000. The file is trusted only for the very version it was written
 * at (ChunkStore.durableVersion: the table folder, the version and its
 * manifest file); any other version reads the table as before, and the
 * build that follows writes the file again.
 *
 * One file per index under CACHE_DIR, named after DB_PATH, written and
 * checked as every cache file is (cache-file.ts).
 */
import { cacheFilePath, parseCacheFile, readCacheBytesNow, writeCacheFile, type CacheKind } from "../cache-file.ts";
import { PERMUTATIONS } from "./minhash.ts";

/** Its format is raised whenever the layout below or the signatures' meaning (minhash.ts) changes. */
const KIND: CacheKind = { magic: "minirag-signatures", format: 1 };
const SLOT_BYTES = PERMUTATIONS * 4;

/** Every signed document of one version, in the table's order. */
export interface StoredSignatures {
  sources: string[];
  dates: (string | null)[];
  /** Each one's key (store/document-keys.ts). */
  keys: number[];
  /** PERMUTATIONS slots each, or none for a document without words. */
  signatures: Uint32Array[];
}

/** Where the signatures of the index at dbPath are kept under cacheDir. */
export function signatureCachePath(cacheDir: string, dbPath: string): string {
  return cacheFilePath(cacheDir, "look-alikes", dbPath, "signatures");
}

/** The signatures the file holds for `version`; null when it is absent, damaged, another program's or of another version. */
export function readSignatureCache(path: string, version: string): StoredSignatures | null {
  const read = parseCacheFile(readCacheBytesNow(path), KIND);
  if (!read || read.indexVersion !== version) return null;
  const { body } = read;
  try {
    const listEnd = body.indexOf(0x0a);
    const [sources, dates, keys, lengths] = JSON.parse(body.toString("utf8", 0, listEnd)) as [string[], (string | null)[], number[], number[]];
    const count = sources.length;
    if (![dates, keys, lengths].every((column) => Array.isArray(column) && column.length === count)) return null;
    const slotBytes = body.subarray(listEnd + 1);
    if (slotBytes.length !== count * SLOT_BYTES) return null;
    // Copied out once into slots of their own: the body's offset need not fall on a 4-byte boundary.
    const slots = new Uint32Array(count * PERMUTATIONS);
    new Uint8Array(slots.buffer).set(slotBytes);
    const signatures = lengths.map((length, i) => (length === PERMUTATIONS ? slots.subarray(i * PERMUTATIONS, (i + 1) * PERMUTATIONS) : new Uint32Array(0)));
    return { sources, dates, keys, signatures };
  } catch {
    return null;
  }
}

/** Writes the signatures of `version` to path (a temporary file renamed over it); a failure leaves the old file or none. */
export async function writeSignatureCache(path: string, version: string, stored: StoredSignatures): Promise<void> {
  const slots = new Uint32Array(stored.signatures.length * PERMUTATIONS);
  stored.signatures.forEach((signature, i) => {
    if (signature.length === PERMUTATIONS) slots.set(signature, i * PERMUTATIONS);
  });
  const lengths = stored.signatures.map((signature) => (signature.length === PERMUTATIONS ? PERMUTATIONS : 0));
  const list = `${JSON.stringify([stored.sources, stored.dates, stored.keys, lengths])}\n`;
  await writeCacheFile(path, KIND, version, [Buffer.from(list), new Uint8Array(slots.buffer)]);
}
