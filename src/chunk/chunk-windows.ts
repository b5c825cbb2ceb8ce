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
import { chunkDocumentInSlices, normalizeLineBreaks, type ChunkDraft, type ChunkOptions } from "./chunk-document.ts";
import { detectCategory, type Category } from "../text/markdown-summary.ts";
import { slices } from "../slices.ts";

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
  // No line break near: a cut between the two halves of a surrogate pair would store neither.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** The document's chunks, window by window, each chunked in slices (slices.ts). */
export async function* chunkWindows(markdown: string, options: ChunkOptions, windowChars = WINDOW_CHARS): AsyncGenerator<ChunkDraft[]> {
  // Each whole-document copy of a 100 MB file is 100-200 MB (two bytes a character once one is outside Latin-1).
  const text = normalizeLineBreaks(markdown);
  markdown = ""; // the generator would otherwise keep the caller's copy alive as long as itself
  yield* chunkPieces([text], detectCategory(text), options, windowChars);
}

/**
 * The chunks of a text that arrives in pieces (line breaks already `\n`),
 * window by window: the windows, and so the chunks, are the ones the whole
 * text would give, since a window's end is chosen once at least a window and
 * two characters lie ahead (windowEnd reads no further).
 */
export async function* chunkPieces(pieces: Iterable<string>, category: Category, options: ChunkOptions, windowChars = WINDOW_CHARS): AsyncGenerator<ChunkDraft[]> {
  const source = pieces[Symbol.iterator]();
  let ahead = "";
  let ended = false;
  let chunkBase = 0;
  let parentBase = 0;
  /** Where the window starts in the whole text. */
  let base = 0;
  /** A window of whitespace alone, carried into the next so no character is lost. */
  let carried = "";
  const work = slices();
  try {
    for (let first = true; ; first = false) {
      while (!ended && ahead.length < windowChars + 2) {
        const next = source.next();
        if (next.done) ended = true;
        else ahead += next.value;
      }
      if (!ahead) return;
      let end = windowEnd(ahead, 0, windowChars);
      // Whitespace alone after the last window joins it: no later window would hold it.
      if (ended && !/\S/.test(ahead.slice(end))) end = ahead.length;
      const window = carried + ahead.slice(0, end);
      ahead = ahead.slice(end);
      const { chunks } = await chunkDocumentInSlices(window, { ...options, category, seedTitle: options.seedTitle && first }, work);
      if (chunks.length === 0) {
        carried = window;
        continue;
      }
      yield chunks.map((c) => ({
        ...c,
        chunkIndex: c.chunkIndex + chunkBase,
        parentIndex: c.parentIndex + parentBase,
        ...(c.span && { span: { start: c.span.start + base, end: c.span.end + base } }),
      }));
      chunkBase += chunks.length;
      parentBase += Math.max(...chunks.map((c) => c.parentIndex)) + 1;
      base += window.length;
      carried = "";
    }
  } finally {
    // A text read from a file holds it open until its pieces end: closed too when the reader stops early (a failed write).
    source.return?.();
  }
}
