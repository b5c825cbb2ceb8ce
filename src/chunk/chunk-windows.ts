/**
 * A very large document chunked a window at a time, so its chunk drafts need
 * not all be in memory at once (a 20 MB text file's 118k drafts took 240 MB
 * of heap; a 100 MB one would take over 1 GB). Windows end at a heading where
 * one is near, else at a blank line, so few sections are cut in two; a
 * section that is cut continues in the next window as a section of its own,
 * and a window that starts below a heading lacks that heading in its
 * breadcrumbs. The whole document's category is used for every window, and
 * only the first is seeded with the title. Chunk and parent indexes run on
 * across windows, as in one pass.
 */
import { chunkDocument, type ChunkDraft, type ChunkOptions } from "./chunk-document.ts";
import { detectCategory, type Category } from "./markdown-summary.ts";

/** Characters per window: about 6k chunks of prose, a few MB of drafts. */
export const WINDOW_CHARS = 1_000_000;

/** Where to end a window that would run to `limit`: a heading line, else a blank line, else a line end, in its last quarter. */
export function windowEnd(text: string, start: number, limit: number): number {
  if (limit >= text.length) return text.length;
  const floor = start + Math.floor((limit - start) * 0.75);
  for (const mark of ["\n#", "\n\n", "\n"]) {
    const at = text.lastIndexOf(mark, limit);
    if (at > floor) return at + 1;
  }
  return limit;
}

/** The document's chunks, window by window. */
export function* chunkWindows(markdown: string, options: ChunkOptions, windowChars = WINDOW_CHARS): Generator<ChunkDraft[]> {
  // Each whole-document copy of a 100 MB file is 100-200 MB (two bytes a character once one is outside Latin-1).
  const text = markdown.includes("\r") ? markdown.replace(/\r\n?/g, "\n") : markdown;
  markdown = ""; // the generator would otherwise keep the caller's copy alive as long as itself
  yield* chunkPieces([text], detectCategory(text), options, windowChars);
}

/**
 * The chunks of a text that arrives in pieces (line breaks already `\n`),
 * window by window: the windows, and so the chunks, are the ones the whole
 * text would give, since a window's end is chosen once at least a window and
 * two characters lie ahead (windowEnd reads no further).
 */
export function* chunkPieces(pieces: Iterable<string>, category: Category, options: ChunkOptions, windowChars = WINDOW_CHARS): Generator<ChunkDraft[]> {
  const source = pieces[Symbol.iterator]();
  let ahead = "";
  let ended = false;
  let chunkBase = 0;
  let parentBase = 0;
  for (let first = true; ; first = false) {
    while (!ended && ahead.length < windowChars + 2) {
      const next = source.next();
      if (next.done) ended = true;
      else ahead += next.value;
    }
    if (!ahead) return;
    const end = windowEnd(ahead, 0, windowChars);
    const window = ahead.slice(0, end);
    ahead = ahead.slice(end);
    const { chunks } = chunkDocument(window, { ...options, category, seedTitle: options.seedTitle && first });
    if (chunks.length === 0) continue;
    yield chunks.map((c) => ({ ...c, chunkIndex: c.chunkIndex + chunkBase, parentIndex: c.parentIndex + parentBase }));
    chunkBase += chunks.length;
    parentBase += Math.max(...chunks.map((c) => c.parentIndex)) + 1;
  }
}
