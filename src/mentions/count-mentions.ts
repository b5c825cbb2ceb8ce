/**
 * Counting mentions over normalised documents (pure): which documents
 * mention the terms (all of them, or any), how many of their chunks do, the
 * first chunk that does, and every word form each term matched with the
 * number of matched documents that have it. Titles are searched with the text.
 */
import { formsIn, hasMatch } from "./match.ts";
import type { Term } from "./terms.ts";

export type MatchMode = "all" | "any";

export interface MentionChunk {
  chunkIndex: number;
  /** The chunk's own text (own-text.ts), normalised. */
  text: string;
  pages: string | null;
  /** Leading lines of the stored text that are context, not own text (own-text.ts). */
  contextLines: number;
}

export interface MentionDocument {
  source: string;
  title: string;
  /** The title, normalised. */
  titleText: string;
  /** In chunk order. */
  chunks: MentionChunk[];
}

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

function mentions(doc: MentionDocument, term: Term): boolean {
  return hasMatch(doc.titleText, term) || doc.chunks.some((c) => hasMatch(c.text, term));
}

export function countMentions(docs: Iterable<MentionDocument>, terms: Term[], mode: MatchMode): MentionCounts {
  const documents: DocumentMentions[] = [];
  const formDocs = terms.map(() => new Map<string, number>());
  let matchedChunks = 0;
  for (const doc of docs) {
    // Several terms that must all be there: a document missing one costs a scan that stops early, not a full count.
    if (mode === "all" && terms.length > 1 && !terms.every((t) => mentions(doc, t))) continue;
    const forms = terms.map(() => new Set<string>());
    const titleHits = terms.map((t, i) => formsIn(doc.titleText, t, forms[i]!) > 0);
    const found = [...titleHits];
    let chunks = 0;
    let firstChunk: MentionChunk | null = null;
    for (const chunk of doc.chunks) {
      let hit = false;
      terms.forEach((t, i) => {
        if (formsIn(chunk.text, t, forms[i]!) === 0) return;
        hit = found[i] = true;
      });
      if (!hit) continue;
      chunks++;
      firstChunk ??= chunk;
    }
    if (mode === "all" ? !found.every(Boolean) : !found.some(Boolean)) continue;
    forms.forEach((set, i) => set.forEach((form) => formDocs[i]!.set(form, (formDocs[i]!.get(form) ?? 0) + 1)));
    matchedChunks += chunks;
    documents.push({ doc, titleMatch: titleHits.some(Boolean), matchedChunks: chunks, firstChunk });
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
