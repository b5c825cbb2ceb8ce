/**
 * Counting mentions over normalised documents (pure): which documents
 * mention the terms (all of them, or any), how many of their chunks do, the
 * first chunk that does, and every word form each term matched with the
 * number of matched documents that have it. Titles are searched with the text.
 *
 * Chunk texts are searched as bytes (mention-corpus.ts), titles as strings
 * (match.ts), by the same rules: each hit is placed in its chunk by walking
 * the block's slots alongside, and counted only for the documents asked
 * about (a block may hold documents out of scope, or replaced since it was
 * built). A match that runs across the seam of two chunks of a document (a
 * phrase, or a run without spaces, cut by a unit boundary) is found by
 * searching the end of each chunk with the start of the next, and counts for
 * the chunk it starts in.
 */
import { eachByteMatch, termBytes } from "./byte-match.ts";
import { formsIn } from "./match.ts";
import type { MentionChunk, MentionDocument, TextBlock } from "./mention-corpus.ts";
import { eachSeamMatch, formAtEdges, seamEnds } from "./seams.ts";
import type { Term } from "./terms.ts";

export type { MentionChunk, MentionDocument } from "./mention-corpus.ts";

export type MatchMode = "all" | "any";

export interface DocumentMentions {
  doc: MentionDocument;
  titleMatch: boolean;
  /** Chunks whose own text mentions at least one term. */
  matchedChunks: number;
  /** The first such chunk, or null when only the title matched. */
  firstChunk: MentionChunk | null;
}

export interface FormCount {
  term: string;
  form: string;
  documents: number;
}

export interface MentionCounts {
  /** Title matches first, then by matched chunks, most first, then by source. */
  documents: DocumentMentions[];
  matchedChunks: number;
  /** Per term in the order given, most documents first; at most FORMS_PER_TERM per term. */
  forms: FormCount[];
  /** Forms past FORMS_PER_TERM, not listed. */
  formsLeftOut: number;
}

/**
 * A short prefix (пр, re) matches thousands of forms in a large corpus; listing
 * them all would swamp a response that is meant to be read. The commonest
 * forms are what tell an overcount from a real one.
 */
export const FORMS_PER_TERM = 100;

/** What one document's chunks and title showed, term by term. */
interface DocumentHits {
  titleHits: boolean[];
  /** Per term: found in the title or a chunk. */
  found: boolean[];
  /** Per term: the word forms it matched. */
  forms: Set<string>[];
  /** Chunks with a match of any term. */
  chunks: Set<MentionChunk>;
}

/** A stretch of a block to search: from..to in bytes, starting at slot. */
interface Span {
  from: number;
  to: number;
  slot: number;
}

/**
 * Where the documents' texts lie, block by block: a document's chunks are consecutive slots of one block, so the
 * documents of a narrow scope (or those left in the running for a later term) are searched where they lie, not the
 * whole block, which at 100k chunks took 35-125 ms for a one-document scope. Most of a block is searched whole.
 */
function spansOf(docs: MentionDocument[]): Map<TextBlock, Span[]> {
  const byBlock = new Map<TextBlock, Span[]>();
  for (const doc of docs) {
    const first = doc.chunks[0];
    if (!first) continue;
    const { block } = first;
    const span = { from: block.starts[first.slot]!, to: block.starts[first.slot + doc.chunks.length]!, slot: first.slot };
    const spans = byBlock.get(block);
    if (spans) spans.push(span);
    else byBlock.set(block, [span]);
  }
  for (const [block, spans] of byBlock) {
    let covered = 0;
    for (const span of spans) covered += span.to - span.from;
    if (covered * 2 > block.bytes.length) byBlock.set(block, [{ from: 0, to: block.bytes.length, slot: 0 }]);
    else spans.sort((a, b) => a.from - b.from);
  }
  return byBlock;
}

export function countMentions(docs: Iterable<MentionDocument>, terms: Term[], mode: MatchMode): MentionCounts {
  const hits = new Map<MentionDocument, DocumentHits>();
  for (const doc of docs) {
    const forms = terms.map(() => new Set<string>());
    const titleHits = terms.map((t, i) => formsIn(doc.titleText, t, forms[i]!) > 0);
    hits.set(doc, { titleHits, found: [...titleHits], forms, chunks: new Set() });
  }
  let searching = [...hits.keys()];
  terms.forEach((term, i) => {
    const needle = termBytes(term);
    const ending = seamEnds(needle);
    for (const [block, spans] of spansOf(searching)) {
      const { bytes, starts } = block;
      const hit = (slot: number, form: string) => {
        const doc = hits.get(block.documents[slot]!);
        if (!doc) return;
        doc.found[i] = true;
        doc.forms[i]!.add(form);
        doc.chunks.add(block.chunks[slot]!);
      };
      for (const span of spans) {
        let slot = span.slot;
        eachByteMatch(bytes.subarray(span.from, span.to), term, needle, (start, formEnd) => {
          const at = span.from + start;
          while (starts[slot + 1]! <= at) slot++;
          // A seamless document goes on past its chunk's edge, where the block search saw a line break.
          const form = block.documents[slot]!.seamless ? formAtEdges(block, slot, term, at, at + needle.length, span.from + formEnd) : bytes.toString("utf8", at, span.from + formEnd);
          if (form !== null) hit(slot, form);
        });
        if (needle.length > 1) eachSeamMatch(block, span.slot, span.to, term, needle, ending, hit);
      }
    }
    // All terms must be there: the next term is searched only in the documents that have this one.
    if (mode === "all") searching = searching.filter((doc) => hits.get(doc)!.found[i]);
  });
  const documents: DocumentMentions[] = [];
  const formDocs = terms.map(() => new Map<string, number>());
  let matchedChunks = 0;
  for (const [doc, { titleHits, found, forms, chunks }] of hits) {
    if (mode === "all" ? !found.every(Boolean) : !found.some(Boolean)) continue;
    forms.forEach((set, i) => set.forEach((form) => formDocs[i]!.set(form, (formDocs[i]!.get(form) ?? 0) + 1)));
    matchedChunks += chunks.size;
    const firstChunk = chunks.size === 0 ? null : doc.chunks.find((c) => chunks.has(c))!;
    documents.push({ doc, titleMatch: titleHits.some(Boolean), matchedChunks: chunks.size, firstChunk });
  }
  documents.sort((a, b) => Number(b.titleMatch) - Number(a.titleMatch) || b.matchedChunks - a.matchedChunks || (a.doc.source < b.doc.source ? -1 : a.doc.source > b.doc.source ? 1 : 0));
  let formsLeftOut = 0;
  const forms = terms.flatMap((t, i) => {
    const all = [...formDocs[i]!].map(([form, documents]) => ({ term: t.raw, form, documents })).sort((a, b) => b.documents - a.documents || (a.form < b.form ? -1 : 1));
    formsLeftOut += Math.max(0, all.length - FORMS_PER_TERM);
    return all.slice(0, FORMS_PER_TERM);
  });
  return { documents, matchedChunks, forms, formsLeftOut };
}
