/**
 * PPTX -> Markdown, read with our zip reader and linkedom's XML parser: one
 * "<!-- Slide number: N -->" section per slide in presentation order (so the
 * chunker's slide category applies), the slide title as a "# " heading, then
 * text, tables, charts and picture alt text in reading order, then speaker
 * notes under "### Notes:". Images and embedded files are never read. The
 * title comes from the core properties.
 */
import { DEFAULT_MAX_FILE_SIZE } from "../config/defaults.ts";
import { coreTitle } from "./docx-core-properties.ts";
import { linkOfType, partLinks, partXml, placeholderInheritance, slideOrder, type StyleCache } from "./pptx-parts.ts";
import { readShapeTree, type SlideContent } from "./pptx-shapes.ts";
import type { Converted, ConvertOptions } from "./types.ts";
import { invalidContainer, openZip, type ZipReader } from "./zip.ts";
import { descendantsNamed, parseXml } from "./zip-xml.ts";
import { MAX_TREE_MARKUP, streamedText, streamedWarning } from "./markup-text.ts";

function shapesOf(zip: ZipReader, part: string, cache: StyleCache, warnings: string[]): SlideContent | undefined {
  const entry = part ? zip.find(part) : undefined;
  if (entry && entry.size > MAX_TREE_MARKUP) {
    // Too large for a tree (markup-text.ts): the slide's text read as it inflates, without its title, tables or order on the slide.
    warnings.push(streamedWarning(part, entry.size));
    return { title: "", blocks: [streamedText((write) => zip.streamText(entry.name, write), "drawingml").markdown] };
  }
  const root = entry ? parseXml(zip.text(entry.name)) : null;
  const spTree = root ? descendantsNamed(root, "spTree")[0] : undefined;
  if (!spTree) {
    warnings.push(`${part} has no readable shapes (damaged or not XML); left empty`);
    return undefined;
  }
  return readShapeTree(spTree, { zip, links: partLinks(zip, part), inherit: placeholderInheritance(zip, part, cache) });
}

function slideMarkdown(zip: ZipReader, part: string, number: number, cache: StyleCache, warnings: string[]): string {
  const slide = shapesOf(zip, part, cache, warnings);
  const lines = [`<!-- Slide number: ${number} -->`];
  if (slide?.title) lines.push(`# ${slide.title}`);
  lines.push(...(slide?.blocks ?? []));
  const notesPart = linkOfType(partLinks(zip, part), "notesSlide");
  const notes = notesPart ? shapesOf(zip, notesPart, cache, warnings) : undefined;
  const notesText = notes ? [notes.title, ...notes.blocks].filter(Boolean).join("\n\n") : "";
  if (notesText) lines.push(`### Notes:\n${notesText}`);
  return lines.join("\n\n");
}

/** Converts a .pptx; maxBytes caps what the parts read may inflate to (MAX_FILE_SIZE). */
export function convertPptx(bytes: Uint8Array, path: string, options: ConvertOptions = {}): Converted {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_SIZE;
  const zip = openZip(bytes, path, maxBytes);
  if (!zip.find("ppt/presentation.xml")) throw invalidContainer(path, "it is a zip, but not a PowerPoint presentation (it has no ppt/presentation.xml)");
  if (!partXml(zip, "ppt/presentation.xml")) throw invalidContainer(path, "its ppt/presentation.xml is damaged (not XML)");
  const cache: StyleCache = new Map();
  const warnings: string[] = [];
  const slides = slideOrder(zip).map((part, i) => slideMarkdown(zip, part, i + 1, cache, warnings));
  return { markdown: slides.join("\n\n"), metadataTitle: coreTitle(zip), ...(warnings.length ? { warnings: warnings.map((w) => `${path}: ${w}`) } : {}) };
}
