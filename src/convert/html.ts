/**
 * HTML -> Markdown with linkedom and turndown. Scripts, styles, navigation
 * (marked or not: see html-navigation.ts) and page chrome are dropped; when the page marks its main content (main,
 * article, role=main, a wiki's content div) only that is converted. Tables
 * stay Markdown tables; inlined data: images keep only their alt text; the
 * <title> becomes metadata.
 */
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
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
  innerHTML: string;
  children: ArrayLike<DomElement>;
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

/** A page title without its chapter number: "Chapter 1. Definitions" names the document "Definitions". */
function cleanPageTitle(raw: string): string | undefined {
  const title = raw.replace(/\s+/g, " ").trim();
  return title.replace(/^(chapter|part|appendix|глава|часть|приложение)\s+[\dIVXLCDMА-Я]+[.:]?\s+(?=\S)/iu, "") || undefined;
}

export function htmlToMarkdown(page: string): Converted {
  if (page.length > MAX_TREE_MARKUP) {
    const streamed = streamedText(page, "html");
    return { markdown: streamed.markdown, metadataTitle: cleanPageTitle(streamed.title ?? ""), warnings: [streamedWarning("the page", page.length)] };
  }
  const { content, metadataTitle } = cleanedContent(page);
  // Marks of cells and rows outside any table (markup a parser left stray) are dropped with the table rule's.
  const markdown = content ? createService().turndown(content).replace(MARKS, " ") : "";
  return { markdown: markdown.replace(/\n{3,}/g, "\n\n").trim(), metadataTitle };
}

/** The page's content as HTML, chrome and navigation dropped, and its title. */
function cleanedContent(page: string): { content: string; metadataTitle?: string } {
  // The table marks are private-use characters; a page's own (icon-font glyphs, which carry no text) go first.
  const html = page.replace(MARKS, "");
  const { document } = parseHTML(html.includes("<html") ? html : `<!doctype html><html><body>${html}</body></html>`);
  const metadataTitle = cleanPageTitle(document.querySelector("title")?.textContent ?? "");
  for (const node of [...document.querySelectorAll(DROP)]) node.remove();
  dropPermalinks(document as unknown as DomElement);
  for (const node of findNavigation(document as unknown as NavNode)) (node as unknown as { remove(): void }).remove();
  capNesting((document.body ?? document.documentElement) as unknown as DepthNode);
  const root = MAIN.map((s) => document.querySelector(s)).find((n) => n && n.textContent?.trim()) ?? document.body ?? document.documentElement;
  return { content: root?.innerHTML ?? "", metadataTitle };
}

export function convertHtml(bytes: Uint8Array, path: string, options?: ConvertOptions): Converted {
  const { text, warnings } = decodeText(bytes, basename(path));
  // A fetched web page keeps only its main article (html-article.ts); without one, the whole page is converted.
  const article = options?.mainArticle && text.length <= MAX_TREE_MARKUP ? mainArticle(text) : undefined;
  if (!article) {
    const converted = htmlToMarkdown(text);
    const all = [...(warnings ?? []), ...(converted.warnings ?? []).map((w) => `${basename(path)}: ${w}`)];
    return { ...converted, ...(all.length ? { warnings: all } : {}) };
  }
  return { markdown: htmlToMarkdown(article.html).markdown, metadataTitle: article.title ?? htmlToMarkdown(text).metadataTitle, warnings };
}
