/**
 * Tidies mammoth's HTML before the shared HTML path: images become their alt
 * text (mammoth never reads them: see docx.ts), links inside the document
 * (footnote and comment references) become plain text and their "↑" back
 * links go, and merged table cells are spread over the grid so each Markdown
 * row keeps its columns.
 */
import { parseHtml, type HtmlDocument } from "./html.ts";

/** The slice of linkedom's DOM this file touches (the project compiles without the DOM lib). */
interface Node {
  tagName: string;
  textContent: string | null;
  parentNode: Node | null;
  children: ArrayLike<Node>;
  childNodes: ArrayLike<Node>;
  getAttribute(name: string): string | null;
  removeAttribute(name: string): void;
  replaceWith(...nodes: (Node | string)[]): void;
  remove(): void;
  querySelectorAll(selector: string): ArrayLike<Node>;
  closest(selector: string): Node | null;
  insertBefore(node: Node, before: Node | null): void;
  after(...nodes: Node[]): void;
}

interface Doc {
  body: Node;
  createElement(tag: string): Node;
}

function imagesToAltText(document: Doc): void {
  for (const img of Array.from(document.body.querySelectorAll("img"))) {
    const alt = (img.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
    img.replaceWith(alt ? ` ${alt} ` : "");
  }
}

function unwrapInternalLinks(document: Doc): void {
  for (const a of Array.from(document.body.querySelectorAll('a[href^="#"]'))) {
    const href = a.getAttribute("href") ?? "";
    // mammoth's back links from a note to where it was cited: "↑".
    if (/^#(footnote|endnote|comment)-ref-/.test(href)) a.remove();
    else a.replaceWith(...Array.from(a.childNodes));
  }
}

/** Rows of a table that belong to it, not to a table nested in one of its cells. */
function ownRows(table: Node): Node[] {
  return Array.from(table.querySelectorAll("tr")).filter((tr) => tr.closest("table") === table);
}

/** Spreads colspan and rowspan into empty cells, so every row has one cell per grid column. */
function spreadMergedCells(document: Doc): void {
  for (const table of Array.from(document.body.querySelectorAll("table"))) {
    const pending: number[] = []; // rows still covered by a rowspan, per column
    for (const tr of ownRows(table)) {
      const cells = Array.from(tr.children).filter((c) => c.tagName === "TD" || c.tagName === "TH");
      let column = 0;
      const fillCovered = (before: Node | null) => {
        while ((pending[column] ?? 0) > 0) {
          pending[column]!--;
          tr.insertBefore(document.createElement("td"), before);
          column++;
        }
      };
      for (const cell of cells) {
        fillCovered(cell);
        const span = Math.min(Math.max(1, Number(cell.getAttribute("colspan")) || 1), 1000);
        const down = Math.min(Math.max(1, Number(cell.getAttribute("rowspan")) || 1), 10_000);
        cell.removeAttribute("colspan");
        cell.removeAttribute("rowspan");
        for (let i = 0; i < span; i++) pending[column + i] = down - 1;
        for (let i = 1; i < span; i++) cell.after(document.createElement("td"));
        column += span;
      }
      fillCovered(null);
    }
  }
}

/** mammoth's HTML, parsed and tidied: the document htmlToMarkdown converts. */
export function tidyMammothHtml(html: string): HtmlDocument {
  const parsed = parseHtml(`<!doctype html><html><body>${html}</body></html>`);
  const document = parsed as unknown as Doc;
  imagesToAltText(document);
  unwrapInternalLinks(document);
  spreadMergedCells(document);
  return parsed;
}
