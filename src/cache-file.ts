/**
 * A file in CACHE_DIR that one process writes and later ones read back
 * (find_mentions' text, the look-alike signatures). Its first line names
 * what it is, its layout's format, the program that wrote it (another
 * version may build the contents differently), the index version they were
 * read at (ChunkStore.durableVersion, or "-") and a hash of the rest, so a
 * file cut short, changed or foreign is never taken. It is written to a
 * temporary name of its own and renamed, so a reader sees a whole file or
 * the one before.
 */
import { mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { VERSION } from "./version.ts";

/** What a cache file holds: its first word and its layout's format, raised whenever the layout or its meaning changes. */
export interface CacheKind {
  magic: string;
  format: number;
}

/** The file of one index (DB_PATH) in a folder of CACHE_DIR: one per index and kind. */
export function cacheFilePath(cacheDir: string, folder: string, dbPath: string, extension: string): string {
  return join(cacheDir, folder, `${createHash("sha256").update(dbPath).digest("hex").slice(0, 16)}.${extension}`);
}

function header(kind: CacheKind, indexVersion: string | null, body: Uint8Array): string {
  return `${kind.magic} ${kind.format} ${VERSION} ${indexVersion ?? "-"} ${Bun.hash(body).toString(16)}\n`;
}

/**
 * The file's bytes, read by the runtime's own threads, so a new process can
 * start this first and let it run while the JS thread loads and opens the
 * index (120 MB of find_mentions' text at 100,000 chunks: 50-90 ms);
 * null when it cannot be read. Read, not mapped: a mapped file cut short
 * under the process (a cache cleaner, another machine's rename over NFS)
 * would end it with a bus error.
 */
export async function readCacheBytes(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/** The same, on this thread (the signatures' file: a few MB). */
export function readCacheBytesNow(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * The contents after the first line of a file's bytes, and the index version it names; null when there are none,
 * or they are cut short, changed, or another kind's or program's. The version and the body come from the same
 * bytes: another process may rename its file over this one at any time.
 */
export function parseCacheFile(bytes: Buffer | null, kind: CacheKind): { indexVersion: string | null; body: Buffer } | null {
  if (!bytes) return null;
  const headerEnd = bytes.indexOf(0x0a);
  if (headerEnd < 0) return null;
  const first = bytes.toString("utf8", 0, headerEnd + 1);
  const named = first.split(" ")[3];
  const indexVersion = named === undefined || named === "-" ? null : named;
  const body = bytes.subarray(headerEnd + 1);
  return first === header(kind, indexVersion, body) ? { indexVersion, body } : null;
}

/** Writes the parts, joined, as the file's body (a temporary file renamed over it); a failure leaves the old file or none, never half of one. */
export async function writeCacheFile(path: string, kind: CacheKind, indexVersion: string | null, parts: Uint8Array[]): Promise<void> {
  // Two Apps of one process (tests, benchmarks) may write the same file at once: each its own temporary name.
  const partial = `${path}.${process.pid}-${crypto.randomUUID()}.partial`;
  try {
    // Joined once, for the hash; past 4 GiB the join fails: no file then, and the next process reads the index.
    const body = Buffer.concat(parts);
    mkdirSync(dirname(path), { recursive: true });
    const head = Buffer.from(header(kind, indexVersion, body));
    const file = await open(partial, "w");
    try {
      // writev reports how much it wrote: on a full disk less than asked, without an error. Such a file was renamed into
      // place cut short (its hash refused it, but it held the space and broke this function's promise: a fault probe).
      const { bytesWritten } = await file.writev([head, body]);
      if (bytesWritten !== head.length + body.length) throw new Error(`wrote ${bytesWritten} of ${head.length + body.length} bytes`);
    } finally {
      await file.close();
    }
    renameSync(partial, path);
  } catch {
    // A full or read-only cache folder, or a body too large to join: the next process builds from the index.
    rmSync(partial, { force: true });
  }
}
