/**
 * A slide's shape tree as Markdown blocks in reading order: the title
 * placeholder first, then shapes top to bottom and left to right (groups kept
 * together), as markitdown orders them. Text boxes and placeholders give
 * their paragraphs, tables become Markdown tables, charts their data,
 * SmartArt its node text, pictures their alt text. Footers, dates and slide
 * numbers repeat on every slide and are left out.
 */
import { chartMarkdown } from "./pptx-chart.ts";
import { offsetOf, partXml, placeholderOf, type Inherited, type PartLink, type Position } from "./pptx-parts.ts";
import { flatText, paragraphs, paragraphsMarkdown } from "./pptx-text.ts";
import type { ZipReader } from "./zip.ts";
import { attr, childNamed, childrenNamed, descendantsNamed, localName, prefixedAttr, type XmlElement } from "./zip-xml.ts";

export interface ShapeContext {
  zip: ZipReader;
  links: Map<string, PartLink>;
  inherit(ph: XmlElement | undefined): Inherited;
}

export interface SlideContent {
  title: string;
  blocks: string[];
}

interface Item {
  position: Position | undefined;
  order: number;
  markdown: string;
}

const CHROME = new Set(["sldNum", "ftr", "dt", "hdr", "sldImg"]);
const TITLES = new Set(["title", "ctrTitle"]);

const cell = (s: string) => s.replace(/\|/g, "\\|");

function tableMarkdown(tbl: XmlElement): string {
  const rows = childrenNamed(tbl, "tr").map((tr) =>
    childrenNamed(tr, "tc").map((tc) => (attr(tc, "hMerge") === "1" || attr(tc, "vMerge") === "1" ? "" : cell(flatText(childNamed(tc, "txBody"))))),
  );
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  if (width === 0 || rows.every((r) => r.every((c) => !c))) return "";
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  return [line(rows[0]!), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)].join("\n");
}

/** SmartArt: the text of each node of its data part, as a list. */
function diagramMarkdown(graphicData: XmlElement, ctx: ShapeContext): string {
  const relIds = childNamed(graphicData, "relIds");
  const data = relIds ? partXml(ctx.zip, ctx.links.get(prefixedAttr(relIds, "dm") ?? "")?.part ?? "") : null;
  if (!data) return "";
  return descendantsNamed(data, "pt")
    .map((pt) => flatText(childNamed(pt, "t")))
    .filter(Boolean)
    .map((t) => `- ${t}`)
    .join("\n");
}

function graphicFrameMarkdown(frame: XmlElement, ctx: ShapeContext): string {
  const graphicData = descendantsNamed(frame, "graphicData")[0];
  if (!graphicData) return "";
  const uri = attr(graphicData, "uri") ?? "";
  if (uri.endsWith("/table")) {
    const tbl = childNamed(graphicData, "tbl");
    return tbl ? tableMarkdown(tbl) : "";
  }
  if (uri.endsWith("/chart")) {
    const ref = childNamed(graphicData, "chart");
    const part = ref ? ctx.links.get(prefixedAttr(ref, "id") ?? "")?.part : undefined;
    return part && ctx.zip.find(part) ? chartMarkdown(ctx.zip.text(part)) : "";
  }
  if (uri.endsWith("/diagram")) return diagramMarkdown(graphicData, ctx);
  return "";
}

/** Items of one container (the tree, a group, an alternate-content choice), titles pulled out into `titles`. */
function collect(container: XmlElement, ctx: ShapeContext, titles: string[]): Item[] {
  const items: Item[] = [];
  for (const shape of Array.from(container.children)) {
    const kind = localName(shape);
    const ph = placeholderOf(shape);
    const type = ph ? (attr(ph, "type") ?? "body") : undefined;
    if (type && CHROME.has(type)) continue;
    const inherited = ctx.inherit(ph);
    const position = offsetOf(shape) ?? inherited.position;
    let markdown = "";
    if (kind === "sp") {
      const txBody = childNamed(shape, "txBody");
      if (!txBody) continue;
      if (type && TITLES.has(type) && titles.length === 0) {
        const title = flatText(txBody);
        if (title) {
          titles.push(title);
          continue;
        }
      }
      markdown = paragraphsMarkdown(paragraphs(txBody, inherited.list));
    } else if (kind === "grpSp") {
      markdown = ordered(collect(shape, ctx, titles)).join("\n\n");
    } else if (kind === "graphicFrame") {
      markdown = graphicFrameMarkdown(shape, ctx);
    } else if (kind === "pic") {
      const nv = childNamed(shape, "nvPicPr");
      const props = nv && childNamed(nv, "cNvPr");
      markdown = (props ? (attr(props, "descr") ?? attr(props, "title") ?? "") : "").replace(/\s+/g, " ").trim();
    } else if (kind === "AlternateContent") {
      // The first choice is the rich form; the fallback repeats it as a picture.
      const choice = childNamed(shape, "Choice");
      if (choice) items.push(...collect(choice, ctx, titles));
      continue;
    }
    if (markdown.trim()) items.push({ position, order: items.length, markdown });
  }
  return items;
}

/** Top to bottom, then left to right; shapes with no known place keep their tree order after the rest. */
function ordered(items: Item[]): string[] {
  const far = Number.MAX_SAFE_INTEGER;
  return [...items]
    .sort((a, b) => (a.position?.y ?? far) - (b.position?.y ?? far) || (a.position?.x ?? far) - (b.position?.x ?? far) || a.order - b.order)
    .map((item) => item.markdown);
}

/** The title and the blocks of a slide's (or notes page's) p:spTree. */
export function readShapeTree(spTree: XmlElement, ctx: ShapeContext): SlideContent {
  const titles: string[] = [];
  const blocks = ordered(collect(spTree, ctx, titles));
  return { title: titles[0] ?? "", blocks };
}
