/**
 * DrawingML text (a:txBody, ECMA-376 part 1 section 21.1.2) as Markdown:
 * runs joined, line breaks kept, bullets and numbering by level. Whether a
 * paragraph is a list item comes from its own a:buChar / a:buAutoNum /
 * a:buNone, else from its text body's list style, else from what the caller
 * inherits (layout and master placeholders, the master's body style).
 */
import { attr, childNamed, localName, type XmlElement } from "./zip-xml.ts";

export type ListKind = "none" | "bullet" | "number";

export interface Paragraph {
  /** Text with "\n" for a:br line breaks. */
  text: string;
  level: number;
  list: ListKind;
}

/** What a paragraph-properties element (a:pPr, a:lvl2pPr, ...) says about bullets; undefined when it does not say. */
export function listKindOf(pPr: XmlElement | undefined): ListKind | undefined {
  if (!pPr) return undefined;
  const marks = Array.from(pPr.children).map(localName);
  if (marks.includes("buNone")) return "none";
  if (marks.includes("buAutoNum")) return "number";
  if (marks.includes("buChar") || marks.includes("buBlip")) return "bullet";
  return undefined;
}

/** Bullets per level (0-8) of a list style (a:lstStyle, p:bodyStyle). */
export function levelKinds(listStyle: XmlElement | undefined): (ListKind | undefined)[] {
  return Array.from({ length: 9 }, (_, i) => listKindOf(listStyle ? childNamed(listStyle, `lvl${i + 1}pPr`) : undefined));
}

/** The text of one a:p: runs, fields and breaks (and math or other alternate content by its first choice). */
function paragraphText(p: XmlElement): string {
  let text = "";
  const walk = (el: XmlElement) => {
    for (const child of Array.from(el.children)) {
      const name = localName(child);
      if (name === "r" || name === "fld") text += childNamed(child, "t")?.textContent ?? "";
      else if (name === "br") text += "\n";
      else if (name === "t") text += child.textContent ?? "";
      else if (name === "AlternateContent") {
        const choice = childNamed(child, "Choice");
        if (choice) walk(choice);
      } else if (name !== "pPr" && name !== "endParaRPr") walk(child);
    }
  };
  walk(p);
  return text;
}

/** The paragraphs of a text body, empty ones left out; `inherited` gives the bullets of a level the body does not set. */
export function paragraphs(txBody: XmlElement, inherited: (level: number) => ListKind): Paragraph[] {
  const own = levelKinds(childNamed(txBody, "lstStyle"));
  const out: Paragraph[] = [];
  for (const p of Array.from(txBody.children).filter((c) => localName(c) === "p")) {
    const text = paragraphText(p).replace(/[ \t\u00a0]+/g, " ").replace(/ ?\n ?/g, "\n").trim();
    if (!text) continue;
    const pPr = childNamed(p, "pPr");
    const level = Math.min(8, Math.max(0, Number(pPr ? attr(pPr, "lvl") : 0) || 0));
    out.push({ text, level, list: listKindOf(pPr) ?? own[level] ?? inherited(level) });
  }
  return out;
}

/** Escapes what a line of slide text could otherwise start as: a heading, quote, list, table row or slide marker. */
function escapeLineStart(line: string): string {
  return line.replace(/^(#{1,6}\s|>|[-*+]\s|\d+[.)]\s|\||<!--)/, "\\$1");
}

/** Paragraphs as Markdown lines: list items indented by level, plain text as lines. */
export function paragraphsMarkdown(paras: Paragraph[]): string {
  const counters: number[] = [];
  return paras
    .map((p) => {
      if (p.list === "none") {
        counters.length = 0;
        return p.text.split("\n").map(escapeLineStart).join("\n");
      }
      counters.length = p.level + 1;
      counters[p.level] = p.list === "number" ? (counters[p.level] ?? 0) + 1 : 0;
      const marker = p.list === "number" ? `${counters[p.level]}.` : "-";
      return `${"  ".repeat(p.level)}${marker} ${escapeLineStart(p.text.replace(/\n/g, " "))}`;
    })
    .join("\n");
}

/** A text body on one line (a slide title, a table cell): breaks and paragraphs become spaces. */
export function flatText(txBody: XmlElement | undefined): string {
  if (!txBody) return "";
  return paragraphs(txBody, () => "none")
    .map((p) => p.text)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}
