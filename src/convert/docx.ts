/**
 * DOCX -> Markdown: mammoth turns the document into HTML and the shared HTML
 * path makes Markdown of it. Headings, lists and tables come from mammoth's
 * default style map; comments are kept (markitdown's "comment-reference"
 * mapping), as are footnotes and endnotes. mammoth is given no way to read
 * anything outside the file: external file access is off and images are
 * never read (each becomes its alt text), so an r:link pointing at a local
 * file or a URL is neither opened nor fetched. The title comes from the core
 * properties.
 */
import mammoth from "mammoth";
import { DEFAULT_MAX_FILE_SIZE } from "../config/defaults.ts";
import { AppError } from "../errors.ts";
import { coreTitle } from "./docx-core-properties.ts";
import { tidyMammothHtml } from "./docx-html.ts";
import { withMathAsText } from "./docx-math.ts";
import { htmlToMarkdown } from "./html.ts";
import { MAX_TREE_MARKUP, streamedText, streamedWarning } from "./markup-text.ts";
import type { Converted, ConvertOptions } from "./types.ts";
import { assertSafeZip, invalidContainer, openZip } from "./zip.ts";

const STYLE_MAP = [
  "comment-reference => sup",
  // Word's own Title and Subtitle styles (mammoth maps only Heading 1-6).
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
];

/** mammoth's XML errors run over several lines and quote the bad bytes; the first line, printable and short, says what is wrong. */
function firstLine(error: unknown): string {
  const line = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
  return line.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, " ").replace(/\s+/g, " ").trim().slice(0, 200);
}

/**
 * mammoth's HTML for a package: no external file access, and images never
 * read (src is left empty; only the alt text is kept).
 */
export async function mammothHtml(bytes: Uint8Array, path: string): Promise<string> {
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes) },
      {
        styleMap: STYLE_MAP,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => ({ src: "", alt: (image as { altText?: string }).altText ?? "" })),
      },
    );
    return result.value;
  } catch (error) {
    throw new AppError(
      "CONVERSION_FAILED",
      `${path} could not be read as a Word document: ${firstLine(error)}`,
      "Open it in Word or LibreOffice and save it again as .docx, or move it out of the roots.",
    );
  }
}

/** Converts a .docx; maxBytes caps what its parts may inflate to (MAX_FILE_SIZE). */
export async function convertDocx(bytes: Uint8Array, path: string, options: ConvertOptions = {}): Promise<Converted> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_SIZE;
  assertSafeZip(bytes, path, maxBytes);
  const zip = openZip(bytes, path, maxBytes);
  const main = zip.find("word/document.xml");
  if (!main && !zip.find("_rels/.rels")) throw invalidContainer(path, "it is a zip, but not a Word document (it has no word/document.xml)");
  const metadataTitle = coreTitle(zip);
  if (main && main.size > MAX_TREE_MARKUP) {
    // mammoth holds the whole part as a tree, and then its own model of it (markup-text.ts): read as it inflates instead.
    const { markdown } = streamedText((write) => zip.streamText(main.name, write), "wordprocessingml");
    return { markdown, metadataTitle, warnings: [`${path}: ${streamedWarning("its word/document.xml", main.size)}`] };
  }
  const math = withMathAsText(bytes, path, maxBytes, main ? zip.text(main.name) : "");
  const html = await mammothHtml(math.bytes, path);
  const converted = htmlToMarkdown(tidyMammothHtml(html));
  return { markdown: math.restore(converted.markdown), metadataTitle, ...(converted.warnings && { warnings: converted.warnings.map((w) => `${path}: ${w}`) }) };
}
