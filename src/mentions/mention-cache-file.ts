/**
 * find_mentions' normalised text kept on disk between processes. Building it
 * from the index reads every chunk's text and normalises it: 2.8 s at 100k
 * chunks (about 1.0 s of reads and 1.3 s of normalising), paid by every CLI
 * `find` and by the first find after a server starts. The file holds each
 * document as the last process built it, under its source key (a write token
 * of its chunk 0, mention-rows.ts), so a process that reads it re-reads only
 * the sources whose key changed since, and drops those no longer indexed.
 *
 * One file per index under CACHE_DIR, named after DB_PATH, written and
 * checked as every cache file is (cache-file.ts). A process that finds the
 * index still at the version the text was read at takes the file as it is,
 * without reading the sources' keys (50-100 ms at 10,000 documents).
 */
import { cacheFilePath, parseCacheFile, writeCacheFile, type CacheKind } from "../cache-file.ts";
import { documentsOverBlock, type MentionDocument } from "./mention-corpus.ts";

/** Its format is raised whenever the layout below or the normalisation (text/normalize.ts, own-text.ts) changes. */
const KIND: CacheKind = { magic: "minirag-mentions", format: 6 };

/**
 * One document: source, key, title, normalised title, then its chunks column by column, each chunk's text as its
 * length in bytes in the block that follows the list. The block is laid out as the index holds it in memory (the
 * texts end to end in UTF-8, each followed by a line break: mention-corpus.ts), so reading the file decodes no
 * chunk text; JSON.stringify of 100k chunk texts took 0.4 s, and decoding them into strings 0.23-0.26 s.
 */
type StoredDocument = [string, string, string, string, number[], (string | null)[], number[], number[], boolean];

export interface KeyedDocument {
  /** The source's key when its document was built (mention-rows.ts readSourceKeys). */
  key: string;
  doc: MentionDocument;
}

/** Where the text of the index at dbPath is kept under cacheDir. */
export function mentionCachePath(cacheDir: string, dbPath: string): string {
  return cacheFilePath(cacheDir, "find-mentions", dbPath, "mentions");
}

/** A checked cache file: the index version its text was read at (null if it names none), and its body. */
export interface MentionFile {
  indexVersion: string | null;
  body: Buffer;
}

/** The file's bytes as read (null when they could not be) checked; null when damaged, foreign or another program's. */
export function openMentionCache(bytes: Buffer | null): MentionFile | null {
  return parseCacheFile(bytes, KIND);
}

/**
 * The documents a checked file holds, by source; none when its list is not as this program writes it (the caller
 * then builds from the index). Their texts lie in the file's own bytes, which they keep.
 */
export function mentionDocuments({ body }: MentionFile): Map<string, KeyedDocument> {
  try {
    const listEnd = body.indexOf(0x0a);
    const list = JSON.parse(body.toString("utf8", 0, listEnd)) as StoredDocument[];
    // Every chunk column as long as the chunk list: otherwise text would be laid against the wrong chunks.
    if (!list.every((d) => d.length === 9 && typeof d[8] === "boolean" && d.slice(5, 8).every((column) => Array.isArray(column) && column.length === d[4].length))) return new Map();
    const docs = documentsOverBlock(
      body.subarray(listEnd + 1),
      list.flatMap((d) => d[7]),
      list.map(([source, , title, titleText, chunkIndexes, pages, contextLines, , seamless]) => ({ source, title, titleText, seamless, chunkIndexes, pages, contextLines })),
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
    list.push([doc.source, key, doc.title, doc.titleText, chunks.map((c) => c.chunkIndex), chunks.map((c) => c.pages), chunks.map((c) => c.contextLines), slots.map((bytes) => bytes.length - 1), doc.seamless]);
  }
  // JSON escapes every line break, so the list ends at the first one.
  await writeCacheFile(path, KIND, indexVersion, [Buffer.from(`${JSON.stringify(list)}\n`), ...texts]);
}
