/**
 * Finds navigation that no <nav> marks: DocBook's navheader/navfooter, blocks
 * whose only content is prev/next/up/home links (by rel, accesskey, or the
 * link's words or icon alt text, English and Russian), and page headers and
 * footers that are nothing but links. Text with a pager link inside it stays.
 */

/** The slice of linkedom's DOM this file touches (the project compiles without the DOM lib). */
export interface NavNode {
  nodeType: number;
  tagName?: string;
  textContent: string | null;
  childNodes: ArrayLike<NavNode>;
  parentElement: NavNode | null;
  getAttribute?(name: string): string | null;
  querySelectorAll?(selector: string): ArrayLike<NavNode>;
}

/** DocBook XSL's page chrome: a Prev/Next table plus the neighbouring chapters' titles, which belong to other pages. */
export const NAVIGATION_CLASSES = ".navheader, .navfooter";

const PAGER_RELS = new Set(["prev", "previous", "next", "up", "home", "start", "first", "last", "contents", "index", "top"]);
/** DocBook's accesskeys: p(rev), n(ext), u(p), h(ome). */
const PAGER_KEYS = new Set(["p", "n", "u", "h"]);
const PAGER_WORDS = new Set([
  "prev", "previous", "next", "up", "home", "top", "back", "first", "last", "contents", "index", "start",
  "previous page", "next page", "back to top", "table of contents",
  "пред", "предыдущая", "след", "следующая", "назад", "вперёд", "вперед", "далее", "наверх", "вверх", "начало", "в начало", "домой", "содержание", "оглавление",
]);
/** What may sit between pager links: spaces, bars, bullets, brackets, arrows, dashes. */
const SEPARATORS = /^[\s|·•«»‹›<>←→↑\-–—[\]()/:,.]*$/u;
const EDGES = /^[\s«»‹›<>←→↑\-–—[\]().:|]+|[\s«»‹›<>←→↑\-–—[\]().:|]+$/gu;
/** Elements whose removal drops a whole line or block, never part of a sentence. */
const BLOCKS = new Set(["TABLE", "TBODY", "TR", "TD", "TH", "DIV", "P", "UL", "OL", "LI", "HEADER", "FOOTER", "SECTION", "ASIDE", "CENTER"]);

const ELEMENT = 1;
const TEXT = 3;

/** A link's words: its text and the alt text of images inside it. */
function label(node: NavNode): string {
  if (node.nodeType === TEXT) return node.textContent ?? "";
  if (node.nodeType !== ELEMENT) return "";
  if (node.tagName === "IMG") return ` ${node.getAttribute?.("alt") ?? ""} `;
  return Array.from(node.childNodes, label).join("");
}

function isPagerLink(a: NavNode): boolean {
  const rels = (a.getAttribute?.("rel") ?? "").toLowerCase().split(/\s+/);
  if (rels.some((r) => PAGER_RELS.has(r))) return true;
  if (PAGER_KEYS.has((a.getAttribute?.("accesskey") ?? "").toLowerCase())) return true;
  return PAGER_WORDS.has(label(a).replace(EDGES, "").replace(/\s+/g, " ").toLowerCase());
}

/** Text and image alt text outside links. */
function textOutsideLinks(node: NavNode): string {
  if (node.nodeType === TEXT) return node.textContent ?? "";
  if (node.nodeType !== ELEMENT || node.tagName === "A") return "";
  if (node.tagName === "IMG") return node.getAttribute?.("alt") ?? "";
  return Array.from(node.childNodes, textOutsideLinks).join("");
}

/** True when the element holds links, each passing `accept`, and nothing else but separators. */
function onlyLinks(el: NavNode, accept: (a: NavNode) => boolean): boolean {
  const links = Array.from(el.querySelectorAll?.("a") ?? []);
  return links.length > 0 && links.every(accept) && SEPARATORS.test(textOutsideLinks(el));
}

/** Every navigation element in the document, outermost first; the caller removes them. */
export function findNavigation(document: NavNode): NavNode[] {
  const found = new Set<NavNode>();
  for (const el of Array.from(document.querySelectorAll?.("header, footer") ?? [])) {
    if (onlyLinks(el, () => true)) found.add(el);
  }
  for (const a of Array.from(document.querySelectorAll?.("a") ?? [])) {
    if (!isPagerLink(a)) continue;
    // Climb while the ancestor is still only pager links; the outermost such block goes.
    let block: NavNode | undefined;
    for (let el = a.parentElement; el && el.tagName !== "BODY" && onlyLinks(el, isPagerLink); el = el.parentElement) {
      if (BLOCKS.has(el.tagName ?? "")) block = el;
    }
    if (block) found.add(block);
  }
  return [...found];
}
