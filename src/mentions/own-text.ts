/**
 * How many of a chunk's leading lines are context it repeats for its vector
 * (seeded title, breadcrumb, table header, split-code note) rather than its
 * own text. Counting those would count a heading once for every chunk of its
 * section; the heading line itself is the own text of its section's first
 * chunk, so it counts once.
 */

export interface StoredChunkText {
  text: string;
  /** Null on rows indexed before it was recorded. */
  contextLines: number | null;
}

/** Legacy rows: at most this many leading lines shared with the previous chunk of the section are context (as join-parent guesses). */
const MAX_SHARED_LINES = 4;

/** How many leading lines are context: the recorded count, or for a legacy row the lines it shares with `previous` (the chunk before it in its section). */
export function contextLineCount(chunk: StoredChunkText, previous?: string): number {
  if (chunk.contextLines !== null) return chunk.contextLines;
  if (previous === undefined) return 0;
  const lines = chunk.text.split("\n");
  const before = previous.split("\n");
  const limit = Math.min(MAX_SHARED_LINES, before.length, lines.length - 1);
  let shared = 0;
  while (shared < limit && lines[shared] === before[shared]) shared++;
  return shared;
}
