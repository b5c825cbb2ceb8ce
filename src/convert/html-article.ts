/**
 * The main article of a web page, by @mozilla/readability over linkedom:
 * what ingest_url keeps of a fetched page before the usual HTML path, so
 * menus, sidebars, footers and comment threads stay out of the index. Files
 * under a root are converted whole, as the author saved them.
 * Measured on readability's own test pages in the shared corpus (Factorio,
 * Le Monde, Mozilla, Wikipedia): every must_include string found, and every
 * line of the expected article present, with nothing else left over.
 */
import { Readability } from "@mozilla/readability";

export interface Article {
  /** The article's element, in the document it was read from (readability's own serializer would turn it into HTML to parse again). */
  root: unknown;
  /** Readability's title: og:title or <title>, with a site-name suffix taken off where it can tell. */
  title?: string;
}

/**
 * The main article of a parsed page (linkedom's document, which readability
 * changes as it reads), or undefined when readability finds none (the caller
 * then converts the whole page).
 */
export function mainArticle(document: unknown): Article | undefined {
  // readability is typed against the DOM lib, which this project compiles without; linkedom's document is what it walks.
  const article = new Readability(document as never, { serializer: (node) => node as unknown }).parse();
  if (!article?.content || !article.textContent?.trim()) return undefined;
  return { root: article.content, title: article.title?.replace(/\s+/g, " ").trim() || undefined };
}
