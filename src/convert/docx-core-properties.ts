/**
 * The title in an OOXML package's core properties (docProps/core.xml,
 * dc:title), shared by DOCX and PPTX. Placeholder titles that Office and
 * converters leave behind are not titles.
 */
import type { ZipReader } from "./zip.ts";
import { descendantsNamed, parseXml } from "./zip-xml.ts";

const PLACEHOLDER = /^(untitled|title|document\d*|presentation\d*|powerpoint presentation|slide \d+|microsoft (word|powerpoint) - .*|(новый )?документ( microsoft word)?|презентация( powerpoint)?)$/i;

/** dc:title of docProps/core.xml, whitespace collapsed; undefined when absent, blank or a placeholder. */
export function coreTitle(zip: ZipReader): string | undefined {
  if (!zip.find("docProps/core.xml")) return undefined;
  const root = parseXml(zip.text("docProps/core.xml"));
  const title = root ? descendantsNamed(root, "title")[0]?.textContent?.replace(/\s+/g, " ").trim() : undefined;
  return title && !PLACEHOLDER.test(title) ? title : undefined;
}
