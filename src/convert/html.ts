/**
 * HTML -> Markdown with linkedom and turndown. Scripts, styles, navigation
 * (marked or not: see html-navigation.ts) and page chrome are dropped; when the page marks its main content (main,
 * article, role=main, a wiki's content div) only that is converted. Tables
 * stay Markdown tables; inlined data: images keep only their alt text; the
 * <title> becomes metadata.
 *
 * The page is parsed once, by linkedom, and turndown walks linkedom's nodes
 * (it takes a node as well as a string). Its browser build is imported: the
 * Node build loads a second DOM (domino) at start-up to parse strings, which
 * nothing here hands it, and that DOM would be carried in the binary too.
 */
import { parseHTML } from "linkedom";
import TurndownService from "turndown/lib/turndown.browser.es.js";
import { basename } from "node:path";
import { decodeText } from "./decode-text.ts";
import { mainArticle } from "./html-article.ts";
import { capNesting, type DepthNode } from "./html-depth.ts";
import { MAX_TREE_MARKUP, streamedText, streamedWarning } from "./markup-text.ts";
import { findNavigation, NAVIGATION_CLASSES, type NavNode } from "./html-navigation.ts";
import type { ConvertOptions, Converted } from "./types.ts";

/** The slice of the DOM this file touches (the project compiles without the DOM lib). */
interface DomElement {
  tagName: string;
  nodeName: string;
  /** 1 for an element, 3 for text. */
  nodeType: number;
  children: ArrayLike<DomElement>;
  childNodes: ArrayLike<DomElement>;
  textContent: string | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  getAttribute(name: string): string | null;
}

const DROP = `script, style, noscript, template, svg, iframe, nav, form, button, select, [role=navigation], [aria-hidden=true], .mw-jump-link, #toc, ${NAVIGATION_CLASSES}`;
const MAIN = ["#mw-content-text", "main", "[role=main]", "article"];
/**
 * A heading's permalink: Sphinx and MkDocs write `<a class="headerlink" href="#id">¶</a>` after
 * the heading's text, Jupyter an `anchor-link`, other tools a bare `§` or `#`. Kept, each heading
 * (and so each chunk's breadcrumb) would read "Setup[¶](#setup)".
 */
const PERMALINK_CLASSES = "a.headerlink, a.anchor-link";
const PERMALINK_MARK = /^\s*[¶§#🔗]?\s*$/u;

/** Removes every heading's permalink anchor; a heading whose link carries its text keeps it. */
function dropPermalinks(document: DomElement): void {
  for (const node of Array.from(document.querySelectorAll(PERMALINK_CLASSES))) (node as unknown as { remove(): void }).remove();
  for (const link of Array.from(document.querySelectorAll("h1 a[href^='#'], h2 a[href^='#'], h3 a[href^='#'], h4 a[href^='#'], h5 a[href^='#'], h6 a[href^='#']"))) {
    if (PERMALINK_MARK.test(link.textContent ?? "") && !link.querySelector("img")) (link as unknown as { remove(): void }).remove();
  }
}

/**
 * Tables are assembled from their cells' converted text, which turndown
 * hands up the tree, marked: converting each cell's innerHTML again, as this
 * rule once did, converted a table nested k deep 2^k times (5,000 nested
 * tables ran past 15 minutes). A nested table's own rule has already taken
 * its marks by the time the outer table reads its content.
 */
const ROW = "\uE000";
const ROW_END = "\uE001";
const CELL = "\uE002";
const CELL_END = "\uE003";
const MARKS = /[\uE000-\uE003]/g;

function tableRows(content: string): string[][] {
  return Array.from(content.matchAll(/\uE000([^\uE001]*)\uE001/g), ([, row]) =>
    Array.from(row!.matchAll(/\uE002([^\uE003]*)\uE003/g), ([, cell]) => cell!.replace(/\s*\n+\s*/g, " ").replace(/\|/g, "\\|").trim()),
  );
}

/**
 * HTML drops a newline right after `<pre>` (it is there only to start the block on its own line); domino and
 * browsers do, linkedom's parser does not, so it is dropped here, or every such block would open with an empty line.
 */
function dropPreLeadingNewline(container: DomElement): void {
  for (const pre of Array.from(container.querySelectorAll("pre"))) {
    const first = (pre as unknown as { firstChild: { nodeType: number; data: string } | null }).firstChild;
    if (first?.nodeType === 3 && /^\r?\n/.test(first.data)) first.data = first.data.replace(/^\r?\n/, "");
  }
}

/** Bing result links wrap the target as base64 in the u parameter. */
function unwrapRedirect(href: string): string {
  const m = /^https?:\/\/www\.bing\.com\/ck\/a\?.*?[?&]u=a1([^&]+)/.exec(href);
  if (!m) return href;
  try {
    return Buffer.from(m[1]!.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
  } catch {
    return href;
  }
}

function createService(): TurndownService {
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  service.addRule("tableCell", { filter: ["td", "th"], replacement: (content) => `${CELL}${content}${CELL_END}` });
  service.addRule("tableRow", { filter: "tr", replacement: (content) => `${ROW}${content}${ROW_END}` });
  service.addRule("table", {
    filter: "table",
    replacement(content) {
      const cells = tableRows(content);
      const width = cells.reduce((w, r) => Math.max(w, r.length), 0);
      if (width === 0) return "";
      const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
      return `\n\n${[line(cells[0]!), `|${" --- |".repeat(width)}`, ...cells.slice(1).map(line)].join("\n")}\n\n`;
    },
  });
  // Sphinx, DocBook and many book tools write <pre> without <code>; turndown fences only <pre><code>, and
  // left bare, a shell comment ("# install it") in such a block would come out as a heading.
  service.addRule("barePre", {
    filter: (node) => node.nodeName === "PRE" && !(node as unknown as DomElement).querySelector("code"),
    replacement: (_content, node) => `\n\n\`\`\`\n${((node as unknown as DomElement).textContent ?? "").replace(/\n$/, "")}\n\`\`\`\n\n`,
  });
  // Inline code with markup inside (Debian's guides: <code><em><code>package</code></em>_<em>version</em>.orig.tar.gz</code>)
  // came out as ``_`package`___`version`_.orig.tar.gz``: the inner marks and code spans rendered inside the outer
  // span, where Markdown reads them literally, and find could not match the words a reader sees. It is the text, in
  // a span whose backticks outnumber any run inside it.
  service.addRule("codeWithMarkup", {
    filter: (node) => node.nodeName === "CODE" && node.parentNode?.nodeName !== "PRE" && (node as unknown as DomElement).children.length > 0,
    replacement: (_content, node) => codeSpan(spacedText(node as unknown as DomElement).replace(/\s+/g, " ").trim()),
  });
  service.addRule("inlineImage", {
    filter: (node) => node.nodeName === "IMG" && (node.getAttribute("src") ?? "").startsWith("data:"),
    replacement: (_content, node) => (node as unknown as DomElement).getAttribute("alt")?.trim() ?? "",
  });
  service.addRule("redirectLink", {
    filter: (node) => node.nodeName === "A" && /^https?:\/\/www\.bing\.com\/ck\//.test(node.getAttribute("href") ?? ""),
    replacement: (content, node) => (content.trim() ? `[${content}](${unwrapRedirect((node as unknown as DomElement).getAttribute("href")!)})` : ""),
  });
  return service;
}

const BREAKS_WORDS = /^(BR|P|DIV|LI|TR|TD|TH|H[1-6]|BLOCKQUOTE|PRE|UL|OL|TABLE|DT|DD)$/;

/** An element's text with a space where a line break or a block ends a word: textContent glued `line1<br>line2` into one word (a reviewer's find). */
function spacedText(node: DomElement): string {
  let text = "";
  for (const child of Array.from(node.childNodes) as unknown as DomElement[]) {
    if (child.nodeType === 3) text += child.textContent ?? "";
    else if (child.nodeType === 1) text += BREAKS_WORDS.test(child.nodeName) ? ` ${spacedText(child)} ` : spacedText(child);
  }
  return text;
}

/** Text as a Markdown code span: delimited by one backtick more than its longest run, padded where it starts or ends with one. */
function codeSpan(text: string): string {
  if (!text.trim()) return "";
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A page title without its chapter number: "Chapter 1. Definitions" names the document "Definitions". */
function cleanPageTitle(raw: string): string | undefined {
  const title = raw.replace(/\s+/g, " ").trim();
  return title.replace(/^(chapter|part|appendix|глава|часть|приложение)\s+[\dIVXLCDMА-Я]+[.:]?\s+(?=\S)/iu, "") || undefined;
}

/** A parsed page: linkedom's document (what the DOCX and EPUB paths tidy, and what readability reads). */
export type HtmlDocument = ReturnType<typeof parseHTML>["document"];

/** Parses HTML, or a fragment of it, into a document. */
export function parseHtml(html: string): HtmlDocument {
  // The table marks are private-use characters; a page's own (icon-font glyphs, which carry no text) go first.
  const page = html.replace(MARKS, "");
  return parseHTML(page.includes("<html") ? page : `<!doctype html><html><body>${page}</body></html>`).document;
}

/** The Markdown of a parsed document, or of one element in it (readability's article), which this strips of chrome first. */
function markdownOf(container: DomElement & { body?: DomElement | null; documentElement?: DomElement | null }): string {
  for (const node of Array.from(container.querySelectorAll(DROP))) (node as unknown as { remove(): void }).remove();
  dropPermalinks(container);
  dropPreLeadingNewline(container);
  for (const node of findNavigation(container as unknown as NavNode)) (node as unknown as { remove(): void }).remove();
  capNesting((container.body ?? container.documentElement ?? container) as unknown as DepthNode);
  const root = MAIN.map((s) => container.querySelector(s)).find((n) => n && n.textContent?.trim()) ?? container.body ?? container.documentElement ?? container;
  // linkedom's parser leaves a text node per entity ("n ", "> 1"), and removing chrome leaves neighbours too: merged, as a
  // fresh parse would have them, so turndown's escaping sees whole text ("n > 1", not a line that starts with ">").
  (root as unknown as { normalize(): void }).normalize();
  // Marks of cells and rows outside any table (markup a parser left stray) are dropped: at a line's edge with
  // nothing in their place, between words as a space.
  const markdown = createService()
    .turndown(root as unknown as TurndownService.Node)
    .replace(/^[\uE000-\uE003]+|[\uE000-\uE003]+$/gm, "")
    .replace(MARKS, " ");
  return markdown.replace(/\n{3,}/g, "\n\n").trim();
}

/** The page's <title>, tidied, for metadata. */
function pageTitle(document: HtmlDocument): string | undefined {
  return cleanPageTitle(document.querySelector("title")?.textContent ?? "");
}

/**
 * HTML text or an already parsed document -> Markdown and the page title; the document is consumed (chrome is
 * removed from it). Text past MAX_TREE_MARKUP is read as a stream of paragraphs and headings (markup-text.ts),
 * with a warning: a tree costs 80-120 times its markup.
 */
export function htmlToMarkdown(html: string | HtmlDocument): Converted {
  if (typeof html === "string" && html.length > MAX_TREE_MARKUP) {
    const streamed = streamedText(html, "html");
    return { markdown: streamed.markdown, metadataTitle: cleanPageTitle(streamed.title ?? ""), warnings: [streamedWarning("the page", html.length)] };
  }
  const document = typeof html === "string" ? parseHtml(html) : html;
  const metadataTitle = pageTitle(document);
  return { markdown: markdownOf(document as unknown as DomElement), metadataTitle };
}

export function convertHtml(bytes: Uint8Array, path: string, options?: ConvertOptions): Converted {
  const { text, warnings } = decodeText(bytes, basename(path));
  const named = (converted: Converted): Converted => {
    const all = [...(warnings ?? []), ...(converted.warnings ?? []).map((w) => `${basename(path)}: ${w}`)];
    return { ...converted, ...(all.length ? { warnings: all } : { warnings: undefined }) };
  };
  if (!options?.mainArticle || text.length > MAX_TREE_MARKUP) return named(htmlToMarkdown(text));
  // A fetched web page keeps only its main article (html-article.ts), read from the same parse.
  const document = parseHtml(text);
  const metadataTitle = pageTitle(document);
  const article = mainArticle(document);
  // Readability has changed the document on its way; without an article the whole page is converted from the text again.
  if (!article) return named(htmlToMarkdown(text));
  return { markdown: markdownOf(article.root as DomElement), metadataTitle: article.title ?? metadataTitle, warnings };
}
