/**
 * The documents find_mentions searches, their chunks' normalised own texts
 * held as bytes. Many chunks share one block: their UTF-8 laid end to end,
 * each followed by a line break, which normalised text never contains (nor
 * does a term), so no match runs from one chunk into the next.
 *
 * Why bytes and not a string per chunk: at 100,000 chunks a new process spent
 * 230-260 ms of its first find's 420 decoding the cache file into 100k
 * strings, where the block is used as it lies in the file; and one byte
 * search over a 117 MB block took 7-29 ms a term, where indexOf over each
 * chunk's own string took 32-57 (scripts/bench/mentions.ts).
 */

export interface MentionChunk {
  chunkIndex: number;
  pages: string | null;
  /** Leading lines of the stored text that are context, not own text (own-text.ts). */
  contextLines: number;
  /** Where its own text is: the block and the slot in it. */
  block: TextBlock;
  slot: number;
}

export interface MentionDocument {
  source: string;
  title: string;
  /** The title, normalised. */
  titleText: string;
  /**
   * Its chunks' own texts laid end to end are the document (chunk scheme 4 on
   * and context lines recorded), so a mention may run across a seam between
   * them (count-mentions.ts). An older index's texts were trimmed and joined
   * with blank lines: their seams hold no text.
   */
  seamless: boolean;
  /** In chunk order. */
  chunks: MentionChunk[];
}

/** A document whose chunk texts are strings (as rows are read, or as tests write them), before it is put in a block. */
export interface PlainDocument {
  source: string;
  title: string;
  titleText: string;
  seamless: boolean;
  chunks: { chunkIndex: number; text: string; pages: string | null; contextLines: number }[];
}

const LINE_BREAK = 0x0a;

/** Chunk texts end to end, each followed by a line break; slot i holds the bytes from starts[i] to starts[i + 1] - 1. */
export class TextBlock {
  /** Per slot: the document and chunk its bytes belong to (a hit there counts for them). */
  readonly documents: MentionDocument[] = [];
  readonly chunks: MentionChunk[] = [];

  /** starts has one entry more than there are slots: the block's length. */
  constructor(
    readonly bytes: Buffer,
    readonly starts: Uint32Array,
  ) {}

  /** Slot i's text. */
  text(slot: number): string {
    return this.bytes.toString("utf8", this.starts[slot]!, this.starts[slot + 1]! - 1);
  }

  /** Slot i's bytes with the line break that ends them. */
  slotBytes(slot: number): Buffer {
    return this.bytes.subarray(this.starts[slot]!, this.starts[slot + 1]!);
  }
}

/** A chunk's normalised own text. */
export function chunkText(chunk: MentionChunk): string {
  return chunk.block.text(chunk.slot);
}

/** The documents as they are read back by tests and the cache file: chunk texts as strings. */
export function plainDocument(doc: MentionDocument): PlainDocument {
  return { source: doc.source, title: doc.title, titleText: doc.titleText, seamless: doc.seamless, chunks: doc.chunks.map((c) => ({ chunkIndex: c.chunkIndex, text: chunkText(c), pages: c.pages, contextLines: c.contextLines })) };
}

/** A document's fields and its chunks' fields column by column, as a block is laid out from them. */
export interface DocumentColumns {
  source: string;
  title: string;
  titleText: string;
  seamless: boolean;
  chunkIndexes: number[];
  pages: (string | null)[];
  contextLines: number[];
}

/**
 * Documents over a block that already holds their chunks' bytes in order: the documents' chunks are slots 0, 1,
 * 2 … in turn, and byteLengths[i] is slot i's length without its line break. Throws when the lengths do not
 * describe the block.
 */
export function documentsOverBlock(bytes: Buffer, byteLengths: ArrayLike<number>, columns: DocumentColumns[]): MentionDocument[] {
  const starts = new Uint32Array(byteLengths.length + 1);
  for (let i = 0, at = 0; i < byteLengths.length; i++) {
    at += byteLengths[i]! + 1;
    starts[i + 1] = at;
    if (bytes[at - 1] !== LINE_BREAK) throw new Error(`chunk text ${i} does not end where its length says`);
  }
  if (starts[byteLengths.length] !== bytes.length) throw new Error("the chunk lengths do not cover the block");
  const block = new TextBlock(bytes, starts);
  let slot = 0;
  return columns.map(({ source, title, titleText, seamless, chunkIndexes, pages, contextLines }) => {
    const doc: MentionDocument = { source, title, titleText, seamless, chunks: [] };
    for (let i = 0; i < chunkIndexes.length; i++, slot++) {
      const chunk: MentionChunk = { chunkIndex: chunkIndexes[i]!, pages: pages[i]!, contextLines: contextLines[i]!, block, slot };
      doc.chunks.push(chunk);
      block.documents.push(doc);
      block.chunks.push(chunk);
    }
    return doc;
  });
}

/** A document's own columns (chunk texts aside). */
function columnsOf(doc: PlainDocument | MentionDocument): DocumentColumns {
  const { source, title, titleText, seamless, chunks } = doc;
  return { source, title, titleText, seamless, chunkIndexes: chunks.map((c) => c.chunkIndex), pages: chunks.map((c) => c.pages), contextLines: chunks.map((c) => c.contextLines) };
}

/**
 * The most text one block is built from: a block is joined as one string first, and a string holds at most 2^31 - 1
 * UTF-16 units, a Buffer 4 GiB; past these an index is laid out in several blocks.
 */
export const BLOCK_TEXT_LIMIT = 256 * 1024 * 1024;

/** Items in runs whose sizes add up to at most limit (an item larger than limit alone), in order. */
function runsUpTo<T>(items: T[], size: (item: T) => number, limit: number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let total = 0;
  for (const item of items) {
    const n = size(item);
    if (run.length > 0 && total + n > limit) {
      runs.push(run);
      run = [];
      total = 0;
    }
    run.push(item);
    total += n;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** Plain documents put into new blocks: one, unless their text passes the limit (BLOCK_TEXT_LIMIT). */
export function inBlocks(plain: PlainDocument[], limit = BLOCK_TEXT_LIMIT): MentionDocument[] {
  return runsUpTo(plain, (d) => d.chunks.reduce((n, c) => n + c.text.length + 1, 0), limit).flatMap((run) => {
    const texts = run.flatMap((d) => d.chunks.map((c) => c.text));
    const bytes = Buffer.from(texts.length ? `${texts.join("\n")}\n` : "");
    return documentsOverBlock(bytes, texts.map((t) => Buffer.byteLength(t)), run.map(columnsOf));
  });
}

/** A document's bytes in its block, line breaks included. */
export function documentBytes(doc: MentionDocument): number {
  return doc.chunks.reduce((n, c) => n + c.block.starts[c.slot + 1]! - c.block.starts[c.slot]!, 0);
}

/** The documents' chunk bytes copied into new blocks, as few as BLOCK_TEXT_LIMIT allows (their old blocks may hold text no document uses any more). */
export function compacted(docs: MentionDocument[], limit = BLOCK_TEXT_LIMIT): MentionDocument[] {
  return runsUpTo(docs, documentBytes, limit).flatMap((run) => {
    const slots = run.flatMap((d) => d.chunks).map((c) => c.block.slotBytes(c.slot));
    return documentsOverBlock(Buffer.concat(slots), slots.map((bytes) => bytes.length - 1), run.map(columnsOf));
  });
}

/** The distinct blocks the documents' chunks lie in. */
export function blocksOf(docs: Iterable<MentionDocument>): Set<TextBlock> {
  const blocks = new Set<TextBlock>();
  for (const doc of docs) for (const chunk of doc.chunks) blocks.add(chunk.block);
  return blocks;
}
