/**
 * A section that continues a table cut at the 4,000-character cap repeats
 * the table's header, so its rows can be read. The header comes from its
 * first unit's context lines (join-parent.ts), but a header too long to
 * leave a unit's vector room (over the prefix reserve of the token budget:
 * a 40-column table's header line) is not repeated there, and the section
 * came back as bare rows (found by a probe: a 638-character header, 222
 * tokens). Such a section's header is read from the chunks before it, back
 * to where its table starts.
 */
import { headerAbove, joinDocument, opensHeaderless } from "../chunk/join-parent.ts";
import type { ChunkStore, SectionChunk } from "../store/chunk-store.ts";

/** Chunks read at a time going back to a table's start: a wide table holds a row or two a chunk. */
const WINDOW = 64;

/** Puts the header in front of every section in `parents` that opens with a table's rows and none. */
export async function restoreTableHeaders(store: ChunkStore, parents: Record<string, string>, sections: Map<string, SectionChunk[]>): Promise<void> {
  for (const [id, text] of Object.entries(parents)) {
    const first = sections.get(id)?.[0];
    if (!first || !opensHeaderless(text)) continue;
    const header = await headerBefore(store, first, text.split("\n", 1)[0]!);
    if (header) parents[id] = header + text;
  }
}

/**
 * At most this many chunks are read back: a section of a very long table far
 * from its start goes without its header rather than costing each question a
 * walk through the table (a reviewer measured 3.8 s a query at 12,000 rows
 * when every window was read and joined again).
 */
const MOST_CHUNKS_BACK = 4 * WINDOW;

async function headerBefore(store: ChunkStore, first: SectionChunk, firstRow: string): Promise<string | null> {
  const floor = Math.max(0, first.chunk_index - MOST_CHUNKS_BACK);
  // The first line of the window read before, which may be the delimiter under a header that ends this one.
  let carried = "";
  for (let to = first.chunk_index - 1; to >= floor; to -= WINDOW) {
    const chunks = await store.sourceChunks(first.source, Math.max(floor, to - WINDOW + 1), to);
    // Each window with that line alone: the rows after it, read before, were rows throughout.
    const text = joinDocument(chunks.map((c) => ({ text: c.text, contextLines: c.context_lines, scheme: c.scheme, parentId: c.parent_id }))) + carried;
    const header = headerAbove(text, firstRow);
    if (header !== "further") return header;
    carried = text.slice(0, text.indexOf("\n") + 1);
  }
  return null;
}
