/**
 * Makes an EPUB chapter (XHTML) safe for the HTML path. XHTML allows any
 * element to self-close, but an HTML parser reads `<a id="p1"/>` or
 * `<script src="x.js"/>` as an open tag that swallows what follows; such tags
 * are opened and closed explicitly. Links into the book itself and images
 * (which the index never reads) become their text and alt text. (Bare
 * <pre> blocks are fenced by the HTML path itself.)
 */
import { parseHtml, type HtmlDocument } from "./html.ts";

/** HTML's void elements: the only ones an HTML parser closes by itself. */
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** `<div/>` -> `<div></div>` for every element that is not void. */
export function expandSelfClosing(xhtml: string): string {
  return xhtml.replace(/<([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/>/g, (tag, name: string, attrs: string) =>
    VOID.has(name.toLowerCase()) ? tag : `<${name}${attrs}></${name}>`,
  );
}

interface Node {
  innerHTML: string;
  querySelector(selector: string): Node | null;
  childNodes: ArrayLike<Node>;
  getAttribute(name: string): string | null;
  replaceWith(...nodes: (Node | string)[]): void;
}

/** The chapter parsed, with in-book links unwrapped and images as alt text, and the targets of those links. */
export function tidyChapter(xhtml: string): { document: HtmlDocument; links: string[] } {
  const parsed = parseHtml(expandSelfClosing(xhtml));
  const document = parsed as unknown as { querySelectorAll(s: string): ArrayLike<Node> };
  for (const img of Array.from(document.querySelectorAll("img, image"))) {
    const alt = (img.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
    img.replaceWith(alt ? ` ${alt} ` : "");
  }
  const links: string[] = [];
  for (const a of Array.from(document.querySelectorAll("a"))) {
    const href = a.getAttribute("href") ?? "";
    // Web and mail links stay; chapter files, anchors and the rest point inside the book.
    if (/^(https?|mailto|ftp):/i.test(href)) continue;
    if (href && !href.startsWith("#")) links.push(href.replace(/#.*$/, ""));
    a.replaceWith(...Array.from(a.childNodes));
  }
  return { document: parsed, links };
}
