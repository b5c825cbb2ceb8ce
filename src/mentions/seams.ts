/**
 * Mentions at the seams between chunks. A document's chunks are consecutive
 * slots of one block, each ending with a line break no normalised text holds
 * (mention-corpus.ts), so the block search neither finds a match that runs
 * from one chunk into the next (a phrase, or a run without spaces, that a
 * unit boundary cut) nor knows what lies beyond a chunk's edge. Where the
 * chunks' own texts laid end to end are the document (a seamless document),
 * this module finds the first and judges the second by the neighbouring
 * chunk. Chunks with no own text are passed over; a match that spans three
 * chunks is not found.
 */
import { formEndAt, isWordBefore, isWordByteAt, wordEndAt } from "./byte-match.ts";
import type { MentionChunk, TextBlock } from "./mention-corpus.ts";
import type { Term } from "./terms.ts";

/** The slot of the chunk before (step -1) or after (step 1) `slot` in its document that has own text, or -1. */
function neighbour(block: TextBlock, slot: number, step: 1 | -1): number {
  const { starts, documents } = block;
  const doc = documents[slot];
  for (let s = slot + step; s >= 0 && s < documents.length && documents[s] === doc; s += step) if (starts[s + 1]! - 1 > starts[s]!) return s;
  return -1;
}

/** The chunk after `chunk` in its document that has own text, if any: where a mention that reaches its end goes on. */
export function followingChunk(chunk: MentionChunk): MentionChunk | undefined {
  const next = neighbour(chunk.block, chunk.slot, 1);
  return next >= 0 ? chunk.block.chunks[next] : undefined;
}

/** Whether the document goes on with a word character before `slot`'s own text. */
function wordBefore(block: TextBlock, slot: number): boolean {
  const before = neighbour(block, slot, -1);
  return before >= 0 && isWordBefore(block.bytes, block.starts[before + 1]! - 1);
}

/** Whether the document goes on with a word character after `slot`'s own text. */
function wordAfter(block: TextBlock, slot: number): boolean {
  const after = neighbour(block, slot, 1);
  return after >= 0 && isWordByteAt(block.bytes, block.starts[after]!);
}

/** The word characters the document goes on with after `slot`'s own text, across as many chunks as the word runs. */
function runOn(block: TextBlock, slot: number): string {
  const { bytes, starts } = block;
  let text = "";
  for (let s = neighbour(block, slot, 1); s >= 0; s = neighbour(block, s, 1)) {
    const end = starts[s + 1]! - 1;
    const wordEnd = wordEndAt(bytes, starts[s]!, end);
    text += bytes.toString("utf8", starts[s]!, wordEnd);
    if (wordEnd < end) break;
  }
  return text;
}

/**
 * A match the block search found in the chunk at `slot` (bytes at..end, its form to formEnd), judged again where it
 * touches the chunk's edge in a seamless document: the form with the word it runs on into, or null when the term's
 * rules refuse it there (a word start it needs, or a quoted term's word end).
 */
export function formAtEdges(block: TextBlock, slot: number, term: Term, at: number, end: number, formEnd: number): string | null {
  const { bytes, starts } = block;
  const ownEnd = starts[slot + 1]! - 1;
  if (term.startsWord && at === starts[slot] && wordBefore(block, slot)) return null;
  if (term.closed && term.endsWord && end === ownEnd && wordAfter(block, slot)) return null;
  const form = bytes.toString("utf8", at, formEnd);
  return term.endsWord && !term.closed && formEnd === ownEnd ? form + runOn(block, slot) : form;
}

const SPACE = 0x20;

/** For each byte value, the k (how many of the term's bytes lie before a seam) whose last byte it is; packed, for fast misses. */
export function seamEnds(needle: Buffer): (number[] | undefined)[] {
  const ending: (number[] | undefined)[] = new Array(256).fill(undefined);
  for (let k = 1; k < needle.length; k++) (ending[needle[k - 1]!] ??= []).push(k);
  return ending;
}

/**
 * Calls onMatch(slot, form) for each match of term that starts in the chunk at a slot from `fromSlot` (while its
 * bytes start before `to`) and ends in the next chunk of the same seamless document. A match across a seam puts
 * the term's byte number k - 1 last in the first chunk, for some k: only those k are compared, in place, byte by
 * byte across the seam (a chunk's last byte is usually a space, which most terms lack), and only a whole match is
 * copied out to judge its boundaries. At 100k chunks the walk costs a few ms a term.
 */
export function eachSeamMatch(block: TextBlock, fromSlot: number, to: number, term: Term, needle: Buffer, ending: (number[] | undefined)[], onMatch: (slot: number, form: string) => void): void {
  const { bytes, starts, documents } = block;
  const length = needle.length;
  let a = -1;
  for (let b = fromSlot; b < documents.length && starts[b]! < to; b++) {
    const bEnd = starts[b + 1]! - 1;
    if (bEnd === starts[b]!) continue;
    // Whitespace on both sides of the seam is one run, one space once normalised (a split code block's lines end
    // with a line break and start indented; found by a probe: every such seam was missed).
    const bFrom = a >= 0 && bytes[starts[a + 1]! - 2] === SPACE && bytes[starts[b]!] === SPACE && bEnd > starts[b]! + 1 ? starts[b]! + 1 : starts[b]!;
    const ks = a >= 0 && documents[a] === documents[b] && documents[b]!.seamless ? ending[bytes[starts[a + 1]! - 2]!] : undefined;
    if (ks !== undefined) {
      const aFrom = starts[a]!;
      const aEnd = starts[a + 1]! - 1;
      for (const inA of ks) {
        const at = aEnd - inA;
        const inB = length - inA;
        if (at < aFrom || inB > bEnd - bFrom) continue;
        let same = true;
        for (let j = 0; j < length && same; j++) same = (j < inA ? bytes[at + j] : bytes[bFrom + j - inA]) === needle[j];
        if (!same) continue;
        // The boundary rules on a copy of whole characters around the match; beyond the copy, the neighbouring chunks.
        let tailFrom = Math.max(aFrom, at - 4);
        while (tailFrom > aFrom && (bytes[tailFrom]! & 0xc0) === 0x80) tailFrom--;
        let headTo = Math.min(bEnd, bFrom + inB + 4);
        while (headTo < bEnd && (bytes[headTo]! & 0xc0) === 0x80) headTo++;
        const joined = Buffer.concat([bytes.subarray(tailFrom, aEnd), bytes.subarray(bFrom, headTo)]);
        if (formEndAt(joined, term, at - tailFrom, length) < 0) continue;
        if (term.startsWord && at === aFrom && wordBefore(block, a)) continue;
        if (term.closed && term.endsWord && bFrom + inB === bEnd && wordAfter(block, b)) continue;
        const formEnd = term.endsWord && !term.closed ? wordEndAt(bytes, bFrom + inB, bEnd) : bFrom + inB;
        const tail = formEnd === bEnd && term.endsWord && !term.closed ? runOn(block, b) : "";
        onMatch(a, bytes.toString("utf8", at, aEnd) + bytes.toString("utf8", bFrom, formEnd) + tail);
      }
    }
    a = b;
  }
}
