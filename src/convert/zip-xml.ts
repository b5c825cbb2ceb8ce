/**
 * XML parts of zip containers (OOXML, OPF) parsed with linkedom's XML mode.
 * linkedom keeps prefixed names ("a:t") without resolving namespaces, so
 * elements and attributes are matched by local name: producers pick their own
 * prefixes, and within one part a local name is never ambiguous for what we
 * read. htmlparser2 underneath expands no DTD entities, so entity bombs and
 * external entities do nothing.
 */
import { DOMParser } from "linkedom";
import { AppError } from "../errors.ts";
import { MAX_TREE_MARKUP } from "./markup-text.ts";

/** The slice of linkedom's XML DOM used here (the project compiles without the DOM lib). */
export interface XmlElement {
  tagName: string;
  textContent: string | null;
  children: ArrayLike<XmlElement>;
  attributes: ArrayLike<{ name: string; value: string }>;
}

/** The root element of an XML text; null when there is none. Refused past MAX_TREE_MARKUP (markup-text.ts), where the tree would take gigabytes. */
export function parseXml(text: string): XmlElement | null {
  if (text.length > MAX_TREE_MARKUP) {
    throw new AppError(
      "CONVERSION_FAILED",
      `one of its XML parts is ${(text.length / 1048576).toFixed(1)} MB, more than the ${MAX_TREE_MARKUP / 1048576} MB this converter reads`,
      "The file is damaged or built to exhaust memory; re-save it from its application, or move it out of the roots.",
    );
  }
  const document = new DOMParser().parseFromString(text, "text/xml") as unknown as { documentElement: XmlElement | null };
  return document.documentElement ?? null;
}

/** "t" for "a:t" and for "t". */
export function localName(el: XmlElement): string {
  return el.tagName.slice(el.tagName.indexOf(":") + 1);
}

/** An attribute by local name ("id" finds r:id); undefined when absent. */
export function attr(el: XmlElement, name: string): string | undefined {
  for (const a of Array.from(el.attributes)) {
    if (a.name === name || a.name.slice(a.name.indexOf(":") + 1) === name) return a.value;
  }
  return undefined;
}

/** A namespaced attribute by local name ("id" finds r:id but not a plain id); undefined when absent. */
export function prefixedAttr(el: XmlElement, name: string): string | undefined {
  return Array.from(el.attributes).find((a) => a.name.includes(":") && a.name.slice(a.name.indexOf(":") + 1) === name)?.value;
}

/** Direct children with that local name. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return Array.from(el.children).filter((c) => localName(c) === name);
}

export function childNamed(el: XmlElement, name: string): XmlElement | undefined {
  return Array.from(el.children).find((c) => localName(c) === name);
}

/** Every descendant with that local name, in document order; does not look inside a match. */
export function descendantsNamed(el: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement) => {
    for (const child of Array.from(node.children)) {
      if (localName(child) === name) found.push(child);
      else walk(child);
    }
  };
  walk(el);
  return found;
}

/** Relationship id -> target of an OPC .rels part (external targets are marked, never resolved). */
export interface Relationship {
  target: string;
  type: string;
  external: boolean;
}

export function parseRelationships(xml: string | undefined): Map<string, Relationship> {
  const rels = new Map<string, Relationship>();
  const root = xml ? parseXml(xml) : null;
  if (!root) return rels;
  for (const rel of childrenNamed(root, "Relationship")) {
    const id = attr(rel, "Id");
    if (id) rels.set(id, { target: attr(rel, "Target") ?? "", type: attr(rel, "Type") ?? "", external: attr(rel, "TargetMode") === "External" });
  }
  return rels;
}

/** A relationship target resolved against the folder of the part that owns it ("ppt/slides" + "../media/a.png"). */
export function resolvePartName(folder: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = folder ? folder.split("/") : [];
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // A stray "%" is a literal character in the name.
  }
  for (const piece of decoded.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== "." && piece !== "") parts.push(piece);
  }
  return parts.join("/");
}
