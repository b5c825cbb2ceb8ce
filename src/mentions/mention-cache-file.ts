/**
 * find_mentions' normalised text kept on disk between processes. Building it
 * from the index reads every chunk's text and normalises it: 2.8 s at 100k
 * chunks (about 1.0 s of reads and 1.3 s of normalising), paid by every CLI
 * `find` and by the first find after a server starts. The file holds each
 * document as the last process built it, under its source key (a write token
 * of its chunk 0, mention-rows.ts), so a process that reads it re-reads only
 * the sources whose key changed since, and drops those no longer indexed.
 *
 * One file per index under CACHE_DIR, named after DB_PATH. Written to a
 * temporary name and renamed, so a reader sees a whole file or the previous
 * one. The first line carries the format, the program version (another
 * version may normalise differently: its file is rebuilt, not trusted), the
 * index version the text was read at (ChunkStore.durableVersion, or "-") and
 * a hash of the rest; a file that fails any check is ignored and rewritten.
 * A process that finds the index still at that version takes the file as it
 * is, without reading the sources' keys (50-100 ms at 10,000 documents).
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname, join } from "node:path";
import { VERSION } from "../version.ts";
import { documentsOverBlock, type MentionDocument } from "./mention-corpus.ts";

/** Raised whenever the layout below or the normalisation (text/normalize.ts, own-text.ts) changes, so a file a build of the same version wrote is rebuilt, not trusted. */
const FORMAT = 4;
const MAGIC = "minirag-mentions";

/**
 * One document: source, key, title, normalised title, then its chunks column by column, each chunk's text as its
 * length in bytes in the block that follows the list. The block is laid out as the index holds it in memory (the
 * texts end to end in UTF-8, each followed by a line break: mention-corpus.ts), so reading the file decodes no
 * chunk text; JSON.stringify of 100k chunk texts took 0.4 s, and decoding them into strings 0.23-0.26 s.
 */
type StoredDocument = [string, string, string, string, number[], (string | null)[], number[], number[]];

export interface KeyedDocument {
  /** The source's key when its document was built (mention-rows.ts readSourceKeys). */
  key: string;
  doc: MentionDocument;
}

/** Where the text of the index at dbPath is kept under cacheDir. */
export function mentionCachePath(cacheDir: string, dbPath: string): string {
  return join(cacheDir, "find-mentions", `${createHash("sha256").update(dbPath).digest("hex").slice(0, 16)}.mentions`);
}

/** The first line: format, program version, index version and a hash of the rest's bytes. */
function header(indexVersion: string | null, body: Uint8Array): string {
  return `${MAGIC} ${FORMAT} ${VERSION} ${indexVersion ?? "-"} ${Bun.hash(body).toString(16)}\n`;
}

/** The index version the file's text was read at, from its first line alone (readMentionCache checks the rest); null if it names none. */
export function mentionCacheVersion(path: string): string | null {
  let first: string;
  try {
    const file = openSync(path, "r");
    try {
      const bytes = Buffer.alloc(1024);
      first = bytes.toString("utf8", 0, readSync(file, bytes, 0, bytes.length, 0)).split("\n")[0]!;
    } finally {
      closeSync(file);
    }
  } catch {
    return null;
  }
  const [magic, format, version, indexVersion] = first.split(" ");
  return magic === MAGIC && format === String(FORMAT) && version === VERSION && indexVersion && indexVersion !== "-" ? indexVersion : null;
}

/**
 * The documents the file holds, by source; an absent, damaged or foreign file gives none (the caller builds from the
 * index), as does one read at another index version than `onlyAt` when given (checked on this very read: another
 * process may rename its file over this one at any time).
 */
export function readMentionCache(path: string, onlyAt?: string): Map<string, KeyedDocument> {
  let bytes: Buffer;
  try {
    // Read, not mapped: the text lives as long as the process, and a mapped file cut short under it (a cache
    // cleaner, a truncation, another machine's rename over NFS) would end the process with a bus error.
    bytes = readFileSync(path);
  } catch {
    return new Map();
  }
  const headerEnd = bytes.indexOf(0x0a);
  const body = bytes.subarray(headerEnd + 1);
  if (headerEnd < 0) return new Map();
  const first = bytes.toString("utf8", 0, headerEnd + 1);
  const named = first.split(" ")[3];
  if ((onlyAt !== undefined && named !== onlyAt) || first !== header(named === "-" ? null : (named ?? null), body)) return new Map();
  try {
    const listEnd = body.indexOf(0x0a);
    const list = JSON.parse(body.toString("utf8", 0, listEnd)) as StoredDocument[];
    // Every chunk column as long as the chunk list: otherwise text would be laid against the wrong chunks.
    if (!list.every((d) => d.length === 8 && d.slice(5).every((column) => Array.isArray(column) && column.length === d[4].length))) return new Map();
    const docs = documentsOverBlock(
      body.subarray(listEnd + 1),
      list.flatMap((d) => d[7]),
      list.map(([source, , title, titleText, chunkIndexes, pages, contextLines]) => ({ source, title, titleText, chunkIndexes, pages, contextLines })),
    );
    return new Map(docs.map((doc, i) => [doc.source, { key: list[i]![1], doc }]));
  } catch {
    return new Map();
  }
}

/** Writes the documents to path (a temporary file renamed over it); a failure leaves the old file or none, never half of one. */
export async function writeMentionCache(path: string, sources: Iterable<KeyedDocument>, indexVersion: string | null = null): Promise<void> {
  const list: StoredDocument[] = [];
  const texts: Buffer[] = [];
  for (const { key, doc } of sources) {
    const { chunks } = doc;
    const slots = chunks.map((c) => c.block.slotBytes(c.slot));
    texts.push(...slots);
    list.push([doc.source, key, doc.title, doc.titleText, chunks.map((c) => c.chunkIndex), chunks.map((c) => c.pages), chunks.map((c) => c.contextLines), slots.map((bytes) => bytes.length - 1)]);
  }
  // Two Apps of one process (tests, benchmarks) may write the same file at once: each its own temporary name.
  const partial = `${path}.${process.pid}-${crypto.randomUUID()}.partial`;
  try {
    // JSON escapes every line break, so the list ends at the first one. Past 4 GiB of text the join fails: no file
    // then, and the next process reads the index, as it would without one.
    const body = Buffer.concat([Buffer.from(`${JSON.stringify(list)}\n`), ...texts]);
    mkdirSync(dirname(path), { recursive: true });
    const file = await open(partial, "w");
    try {
      await file.writev([Buffer.from(header(indexVersion, body)), body]);
    } finally {
      await file.close();
    }
    renameSync(partial, path);
  } catch {
    // A full or read-only cache folder, or text too large to join: the next process builds from the index.
    rmSync(partial, { force: true });
  }
}
