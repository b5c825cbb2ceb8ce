/**
 * find_mentions: every indexed document in scope that mentions the terms
 * (all of them, or any), counted over the whole index rather than ranked and
 * cut. The counts cover every match; the documents come a page at a time,
 * each with a snippet of its first mention and its look-alikes. The matching
 * rule is in mentions/; the text it scans is cached per table version.
 */
import type { App } from "../app.ts";
import { AppError } from "../errors.ts";
import { labelsOn } from "../labels/document-labels.ts";
import { withLookAlikes, type LookAlike } from "../lookalikes/look-alikes.ts";
import { countMentions, type FormCount, type MatchMode } from "../mentions/count-mentions.ts";
import type { MentionDocument } from "../mentions/mention-corpus.ts";
import { followingChunk } from "../mentions/seams.ts";
import { snippetOf } from "../mentions/snippet.ts";
import { parseTerms, type Term } from "../mentions/terms.ts";
import { displayPath } from "../scan/display-path.ts";
import { inScope } from "../scan/scope.ts";
import { scopesAsSources } from "../scan/source-names.ts";
import { emptyIndexNotice } from "./empty-index-notice.ts";
import type { ChunkStore } from "../store/chunk-store.ts";

/** Documents per page; the counts always cover every match. */
export const PAGE_SIZE = 200;

export interface FindInput {
  terms: string[];
  match?: MatchMode;
  scope?: string[];
  offset?: number;
}

export interface FirstMatch {
  chunkIndex: number;
  /** The passage around the first mention, in the document's own spelling. */
  snippet: string;
  /** A PDF chunk's pages, where certain. */
  pages?: string;
}

export interface FoundDocument {
  source: string;
  displayPath: string;
  title: string;
  /** The title mentions a term. */
  titleMatch: boolean;
  /** Chunks whose own text mentions a term. */
  matchedChunks: number;
  /** Absent when only the title mentions the terms. */
  firstMatch?: FirstMatch;
  lookAlikes?: LookAlike[];
}

export interface FindResult {
  searchedDocuments: number;
  matchedDocuments: number;
  matchedChunks: number;
  forms: FormCount[];
  /** Word forms not listed in forms (past the most common 100 of a term); absent when none. */
  formsLeftOut?: number;
  documents: FoundDocument[];
  nextOffset?: number;
  notice?: string;
}

export async function findMentions(app: App, input: FindInput): Promise<FindResult> {
  const terms = parseTerms(input.terms);
  const match = input.match ?? "all";
  const offset = input.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new AppError("INVALID_ARGUMENT", `offset must be a whole number >= 0, got ${offset}`, "Pass 0 for the first page, then the nextOffset of the page before.");
  // A new process's cache file is read on the runtime's threads while this one loads LanceDB and opens the index;
  // the text's load takes the read, and a find that ends before it lets it go (120 MB at 100k chunks).
  app.mentions.startRead();
  const empty = { searchedDocuments: 0, matchedDocuments: 0, matchedChunks: 0, forms: [], documents: [] };
  let store: ChunkStore;
  let all: MentionDocument[];
  try {
    // One version for the counts, the snippets and the look-alikes.
    store = await app.store.snapshot();
    if ((await store.countRows()) === 0) return { ...empty, notice: emptyIndexNotice(app.config) };
    // The look-alikes' signatures are loaded (a new process: 100 ms at 10k documents) while the text is.
    app.signatures.at(store).catch(() => {});
    all = await app.mentions.documents(store);
  } finally {
    app.mentions.dropRead();
  }
  // Scopes as the index names files (on a shared index, root-relative: scan/source-names.ts).
  const scope = scopesAsSources(app.names, app.config.roots, input.scope);
  const searched = all.filter((d) => inScope(d.source, scope));
  if (searched.length === 0) return { ...empty, notice: `No indexed documents under scope ${scope!.join(", ")}. A scope is an absolute path or source id prefix.` };
  const counts = countMentions(searched, terms, match);
  const page = counts.documents.slice(offset, offset + PAGE_SIZE);
  // The chunk after the first mention's too, where a mention may run on past a chunk's end.
  const nexts = page.map((d) => (d.firstChunk ? followingChunk(d.firstChunk) : undefined));
  const texts = await store.chunkTexts(
    page.flatMap((d, i) => [d.firstChunk, nexts[i]].flatMap((c) => (c ? [{ source: d.doc.source, chunkIndex: c.chunkIndex }] : []))),
  );
  const roots = app.config.roots;
  const documents: FoundDocument[] = page.map(({ doc, titleMatch, matchedChunks, firstChunk }, i) => {
    const found: FoundDocument = { source: doc.source, displayPath: displayPath(doc.source, roots), title: doc.title, titleMatch, matchedChunks };
    const text = firstChunk ? texts.get(`${doc.source}#${firstChunk.chunkIndex}`) : undefined;
    if (firstChunk && text !== undefined) {
      const next = nexts[i];
      const nextText = next && texts.get(`${doc.source}#${next.chunkIndex}`);
      const after = next && nextText !== undefined ? { text: nextText, contextLines: next.contextLines } : undefined;
      found.firstMatch = { chunkIndex: firstChunk.chunkIndex, snippet: snippetOf(text, firstChunk.contextLines, terms, after) };
      if (firstChunk.pages) found.firstMatch.pages = firstChunk.pages;
    }
    return found;
  });
  const result: FindResult = {
    searchedDocuments: searched.length,
    matchedDocuments: counts.documents.length,
    matchedChunks: counts.matchedChunks,
    forms: counts.forms,
    documents: await withLookAlikes(app.signatures, store, documents, roots, labelsOn(app.taxonomy)),
  };
  if (counts.formsLeftOut > 0) result.formsLeftOut = counts.formsLeftOut;
  if (offset + PAGE_SIZE < counts.documents.length) result.nextOffset = offset + PAGE_SIZE;
  // An empty page past the end is not "nothing found": the counts above still hold.
  const pastEnd = counts.documents.length > 0 && offset >= counts.documents.length ? `offset ${offset} is past the last of the ${counts.documents.length} matched documents; pages start at 0, ${PAGE_SIZE} documents each.` : undefined;
  const notice = [await store.damageNotice(), counts.documents.length === 0 ? noMatchNotice(terms, match, searched.length, scope) : undefined, pastEnd].filter(Boolean).join(" ");
  if (notice) result.notice = notice;
  return result;
}

/** What was searched, so "not there" is read as exactly that and no more. */
function noMatchNotice(terms: Term[], match: MatchMode, searched: number, scope: string[] | undefined): string {
  const what = terms.length === 1 ? terms[0]!.raw : `${match === "all" ? "all of" : "any of"} ${terms.map((t) => t.raw).join(", ")}`;
  const where = scope?.length ? ` under ${scope.join(", ")}` : "";
  return (
    `No indexed document mentions ${what}: searched the text and titles of all ${searched} indexed documents${where}. ` +
    "Files not synced yet (list_files shows them) and scans without OCR have no text to search."
  );
}
