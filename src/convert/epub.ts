/**
 * EPUB -> Markdown: META-INF/container.xml names the package document (OPF);
 * its spine gives the chapters in reading order, each converted by the HTML
 * path; spine items outside the reading order come after, and only when the
 * book links to them. The book's metadata (title, authors, publisher, date, description)
 * opens the Markdown as markitdown writes it, and dc:title is the title.
 * Images and fonts are never read. A book whose chapters are encrypted (DRM)
 * fails saying so rather than indexing ciphertext.
 */
import { DEFAULT_MAX_FILE_SIZE } from "../config/defaults.ts";
import { AppError } from "../errors.ts";
import { decodeText } from "./decode-text.ts";
import { tidyChapter } from "./epub-html.ts";
import { htmlToMarkdown } from "./html.ts";
import { MAX_TREE_MARKUP, streamedText, streamedWarning } from "./markup-text.ts";
import type { Converted, ConvertOptions } from "./types.ts";
import { invalidContainer, openZip, type ZipReader } from "./zip.ts";
import { attr, childNamed, childrenNamed, descendantsNamed, localName, parseXml, resolvePartName, type XmlElement } from "./zip-xml.ts";

const CHAPTER_TYPES = /^(application\/xhtml\+xml|text\/html|application\/x-dtbook\+xml)$/i;
/** Values some tools write when they know nothing. */
const EMPTY_VALUE = /^(unknown|none|n\/a|untitled)?$/i;

/** The package document's part name: from container.xml, else the only .opf in the book. */
function packagePath(zip: ZipReader, path: string): string {
  const container = zip.find("META-INF/container.xml") ? parseXml(zip.text("META-INF/container.xml")) : null;
  const named = container ? descendantsNamed(container, "rootfile").map((r) => attr(r, "full-path") ?? "").find((p) => p && zip.find(p)) : undefined;
  if (named) return named;
  const opfs = zip.entries.filter((e) => e.name.toLowerCase().endsWith(".opf"));
  if (opfs.length === 1) return opfs[0]!.name;
  throw invalidContainer(path, "it is a zip, but not an EPUB book (META-INF/container.xml names no package document)");
}

function metadataValues(metadata: XmlElement | undefined, name: string): string[] {
  if (!metadata) return [];
  return childrenNamed(metadata, name)
    .map((el) => (el.textContent ?? "").replace(/\s+/g, " ").trim())
    .filter((v) => !EMPTY_VALUE.test(v));
}

/** markitdown's metadata lines: "**Title:** ...", "**Authors:** ...". */
function metadataBlock(metadata: XmlElement | undefined): { title?: string; block: string } {
  const title = metadataValues(metadata, "title")[0];
  const fields: [string, string | undefined][] = [
    ["Title", title],
    ["Authors", metadataValues(metadata, "creator").join(", ") || undefined],
    ["Publisher", metadataValues(metadata, "publisher")[0]],
    ["Date", metadataValues(metadata, "date")[0]],
    ["Description", metadataValues(metadata, "description")[0]],
  ];
  return { title, block: fields.filter(([, v]) => v).map(([k, v]) => `**${k}:** ${v}`).join("\n") };
}

/** Parts that META-INF/encryption.xml lists as encrypted (font obfuscation included; only chapters matter). */
function encryptedParts(zip: ZipReader): Set<string> {
  const root = zip.find("META-INF/encryption.xml") ? parseXml(zip.text("META-INF/encryption.xml")) : null;
  const uris = root ? descendantsNamed(root, "CipherReference").map((c) => attr(c, "URI") ?? "") : [];
  return new Set(uris.filter(Boolean).map((uri) => resolvePartName("", uri).toLowerCase()));
}

/** Converts an .epub; maxBytes caps what the parts read may inflate to (MAX_FILE_SIZE). */
export function convertEpub(bytes: Uint8Array, path: string, options: ConvertOptions = {}): Converted {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_SIZE;
  const zip = openZip(bytes, path, maxBytes);
  const opfPath = packagePath(zip, path);
  const opf = parseXml(zip.text(opfPath));
  if (!opf || localName(opf) !== "package") throw invalidContainer(path, `its package document ${opfPath} is not an OPF package`);
  const folder = opfPath.includes("/") ? opfPath.slice(0, opfPath.lastIndexOf("/")) : "";
  const manifest = new Map<string, { part: string; type: string }>();
  for (const item of descendantsNamed(childNamed(opf, "manifest") ?? opf, "item")) {
    const id = attr(item, "id");
    if (id) manifest.set(id, { part: resolvePartName(folder, attr(item, "href") ?? ""), type: attr(item, "media-type") ?? "" });
  }
  const encrypted = encryptedParts(zip);
  const spine = childNamed(opf, "spine");
  const items = (spine ? childrenNamed(spine, "itemref") : [])
    .map((ref) => ({ ...manifest.get(attr(ref, "idref") ?? ""), linear: attr(ref, "linear") !== "no" }))
    .filter((item): item is { part: string; type: string; linear: boolean } => !!item.part && CHAPTER_TYPES.test(item.type ?? "") && !!zip.find(item.part));
  const chapters: string[] = [];
  const warnings: string[] = [];
  const failures: AppError[] = [];
  const linked = new Set<string>();
  // One damaged chapter does not lose the book: it is reported and the rest is read.
  const leaveOut = (error: unknown) => {
    if (!(error instanceof AppError) || error.code !== "CONVERSION_FAILED") throw error;
    failures.push(error);
    warnings.push(`${error.message}; chapter left out`);
  };
  const convert = (part: string) => {
    if (encrypted.has(part.toLowerCase())) {
      throw new AppError("CONVERSION_FAILED", `${path} is DRM-protected: its chapter ${part} is encrypted`, "Index a copy without DRM (for example as sold DRM-free), or move it out of the roots.");
    }
    const entry = zip.find(part);
    if (entry && entry.size > MAX_TREE_MARKUP) {
      // Too large for a tree (markup-text.ts): its text read as it inflates (XHTML is UTF-8), with no whole copy of the part;
      // links from it to notes are not followed.
      warnings.push(`${path}: ${streamedWarning(`its chapter ${part}`, entry.size)}`);
      try {
        const { markdown } = streamedText((write) => zip.streamText(entry.name, write), "html");
        if (markdown) chapters.push(markdown);
      } catch (error) {
        leaveOut(error);
      }
      return;
    }
    let text: string;
    try {
      const decoded = decodeText(zip.bytes(part), `${path} (${part})`);
      warnings.push(...(decoded.warnings ?? []));
      text = decoded.text;
    } catch (error) {
      leaveOut(error);
      return;
    }
    const { document, links } = tidyChapter(text);
    const chapterFolder = part.includes("/") ? part.slice(0, part.lastIndexOf("/")) : "";
    for (const link of links) linked.add(resolvePartName(chapterFolder, link).toLowerCase());
    const { markdown } = htmlToMarkdown(document);
    if (markdown) chapters.push(markdown);
  };
  const hasLinear = items.some((item) => item.linear);
  for (const item of items) if (item.linear || !hasLinear) convert(item.part);
  // Items outside the reading order (linear="no") are read only when the book links to them (notes, answers); other
  // auxiliary items, such as the same guide in five other languages in Ubuntu's EPUB, are not this book's text.
  for (const item of items) if (!item.linear && hasLinear && linked.has(item.part.toLowerCase())) convert(item.part);
  if (chapters.length === 0 && failures.length > 0) throw failures[0]!;
  const { title, block } = metadataBlock(childNamed(opf, "metadata"));
  return { markdown: [block, ...chapters].filter(Boolean).join("\n\n"), metadataTitle: title, ...(warnings.length ? { warnings } : {}) };
}
