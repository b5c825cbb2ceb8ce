/**
 * Parts of a presentation package and how they point at each other: a part's
 * relationships (resolved to part names), slides in presentation order, and
 * where a placeholder sits when the slide leaves that to its layout.
 */
import type { ZipReader } from "./zip.ts";
import { levelKinds, type ListKind } from "./pptx-text.ts";
import { attr, childNamed, descendantsNamed, localName, parseRelationships, prefixedAttr, parseXml, resolvePartName, type XmlElement } from "./zip-xml.ts";

export interface PartLink {
  /** Part name inside the package; "" for an external target, which is never read. */
  part: string;
  type: string;
}

const folderOf = (part: string) => part.slice(0, Math.max(0, part.lastIndexOf("/")));

/** The relationships of a part, by id, with targets resolved to part names. */
export function partLinks(zip: ZipReader, part: string): Map<string, PartLink> {
  const folder = folderOf(part);
  const relsName = `${folder ? `${folder}/` : ""}_rels/${part.slice(part.lastIndexOf("/") + 1)}.rels`;
  const links = new Map<string, PartLink>();
  if (!zip.find(relsName)) return links;
  for (const [id, rel] of parseRelationships(zip.text(relsName))) {
    links.set(id, { part: rel.external ? "" : resolvePartName(folder, rel.target), type: rel.type });
  }
  return links;
}

/** The parsed part, or null when the package lacks it or it is not XML. */
export function partXml(zip: ZipReader, part: string): XmlElement | null {
  return part && zip.find(part) ? parseXml(zip.text(part)) : null;
}

/** The first link of a type ("slideLayout", "notesSlide", ...), by the last word of its type URI. */
export function linkOfType(links: Map<string, PartLink>, type: string): string | undefined {
  for (const link of links.values()) if (link.part && link.type.endsWith(`/${type}`)) return link.part;
  return undefined;
}

/** Slide part names in presentation order (p:sldIdLst); by file number when the list is missing. */
export function slideOrder(zip: ZipReader): string[] {
  const presentation = partXml(zip, "ppt/presentation.xml");
  const links = partLinks(zip, "ppt/presentation.xml");
  const listed = presentation ? descendantsNamed(presentation, "sldId").map((s) => links.get(prefixedAttr(s, "id") ?? "")?.part ?? "") : [];
  const found = listed.filter((part) => part && zip.find(part));
  if (found.length) return found;
  const number = (name: string) => Number(/(\d+)\.xml$/i.exec(name)?.[1] ?? 0);
  return zip.entries
    .map((e) => e.name)
    .filter((name) => /^ppt\/slides\/[^/]+\.xml$/i.test(name))
    .sort((a, b) => number(a) - number(b));
}

export interface Position {
  x: number;
  y: number;
}

/** The a:off of a shape's own transform (sp, pic, cxnSp: spPr; grpSp: grpSpPr; graphicFrame: xfrm). */
export function offsetOf(shape: XmlElement): Position | undefined {
  for (const holder of ["spPr", "grpSpPr", "xfrm"]) {
    const el = childNamed(shape, holder);
    const xfrm = el && (holder === "xfrm" ? el : childNamed(el, "xfrm"));
    const off = xfrm && childNamed(xfrm, "off");
    if (off) return { x: Number(attr(off, "x")) || 0, y: Number(attr(off, "y")) || 0 };
  }
  return undefined;
}

/** The p:ph of a shape, if it is a placeholder. */
export function placeholderOf(shape: XmlElement): XmlElement | undefined {
  const nv = Array.from(shape.children).find((c) => /^nv\w*Pr$/.test(localName(c)));
  const nvPr = nv && childNamed(nv, "nvPr");
  return nvPr && childNamed(nvPr, "ph");
}

/** What a layout or master placeholder passes on: where it sits and its bullets per level. */
interface PlaceholderStyle {
  position?: Position;
  levels: (ListKind | undefined)[];
}

/** Placeholder styles of a layout or master, by "idx:N" and "type:T"; kept per conversion, as slides share layouts. */
export type StyleCache = Map<string, Map<string, PlaceholderStyle>>;

export interface Inherited {
  position?: Position;
  list(level: number): ListKind;
}

function stylesOf(zip: ZipReader, part: string | undefined, cache: StyleCache): Map<string, PlaceholderStyle> {
  if (!part) return new Map();
  const cached = cache.get(part);
  if (cached) return cached;
  const byKey = new Map<string, PlaceholderStyle>();
  cache.set(part, byKey);
  const root = partXml(zip, part);
  for (const shape of root ? descendantsNamed(root, "sp") : []) {
    const ph = placeholderOf(shape);
    if (!ph) continue;
    const txBody = childNamed(shape, "txBody");
    const style = { position: offsetOf(shape), levels: levelKinds(txBody ? childNamed(txBody, "lstStyle") : undefined) };
    const idx = attr(ph, "idx");
    if (idx && !byKey.has(`idx:${idx}`)) byKey.set(`idx:${idx}`, style);
    const type = attr(ph, "type") ?? "body";
    if (!byKey.has(`type:${type}`)) byKey.set(`type:${type}`, style);
  }
  // The master's body style: bullets of body placeholders that no layer above sets.
  const bodyStyle = root ? descendantsNamed(root, "bodyStyle")[0] : undefined;
  if (bodyStyle) byKey.set("bodyStyle", { levels: levelKinds(bodyStyle) });
  return byKey;
}

/**
 * What a slide's placeholders inherit from its layout, then its master:
 * position (matched by idx, then type) and bullets per level, ending at the
 * master's body style for body and content placeholders.
 */
export function placeholderInheritance(zip: ZipReader, slidePart: string, cache: StyleCache): (ph: XmlElement | undefined) => Inherited {
  const layout = linkOfType(partLinks(zip, slidePart), "slideLayout");
  const master = layout ? linkOfType(partLinks(zip, layout), "slideMaster") : undefined;
  const layers = [stylesOf(zip, layout, cache), stylesOf(zip, master, cache)];
  return (ph) => {
    if (!ph) return { list: () => "none" };
    const idx = attr(ph, "idx");
    const type = attr(ph, "type") ?? "body";
    const types = type === "ctrTitle" ? ["ctrTitle", "title"] : type === "subTitle" ? ["subTitle", "body"] : [type];
    const matches = layers.flatMap((layer) => {
      const byIdx = idx ? layer.get(`idx:${idx}`) : undefined;
      return [byIdx ?? types.map((t) => layer.get(`type:${t}`)).find(Boolean)].filter((m): m is PlaceholderStyle => m !== undefined);
    });
    if (type === "body" || type === "obj") {
      const body = layers[1]!.get("bodyStyle");
      if (body) matches.push(body);
    }
    return {
      position: matches.find((m) => m.position)?.position,
      list: (level) => matches.map((m) => m.levels[level]).find((k) => k !== undefined) ?? "none",
    };
  };
}
