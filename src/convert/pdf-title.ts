/**
 * The title in a PDF's info dictionary, unless it is what a tool wrote on its
 * own: "Microsoft Word - report.docx", "Untitled", "(anonymous)", a file name
 * or a path. Such a title would name every document after its software.
 */
const BOILERPLATE = /^(?:untitled(?:\s*\d*)?|\(?anonymous\)?|title|no title|document\s*\d*|slide\s*\d+|powerpoint presentation|presentation\d*|unknown|none|null|default)$/i;
const TOOL_PREFIX = /^(?:microsoft (?:word|powerpoint|excel)|word|excel|powerpoint)\s+-\s+/i;
const FILE_NAME = /\.(?:docx?|pptx?|xlsx?|pdf|odt|rtf|txt|tex|dvi|ps|eps|indd|qxd|pages|key|html?|md|wpd)$/i;

/**
 * A title pdf.js read byte by byte (PDFDocEncoding) though it is UTF-16
 * without the byte-order mark that marks UTF-16 in PDF strings: ImageMagick
 * writes its scans' titles so, and "ccitt-scan" came back as
 * "\0c\0c\0i\0t\0t…", NULs and all, in titles, chunk texts and answers.
 * Taken as UTF-16 when every byte in one of the two positions is NUL.
 */
function utf16WithoutMark(raw: string): string {
  if (raw.length < 2 || raw.length % 2 !== 0 || !raw.includes("\0")) return raw;
  const nulAt = (parity: number) => [...raw].every((c, i) => i % 2 !== parity || c === "\0");
  const bigEndian = nulAt(0);
  if (!bigEndian && !nulAt(1)) return raw;
  let text = "";
  for (let i = 0; i < raw.length; i += 2) {
    const [high, low] = bigEndian ? [raw.charCodeAt(i), raw.charCodeAt(i + 1)] : [raw.charCodeAt(i + 1), raw.charCodeAt(i)];
    text += String.fromCharCode((high << 8) | low);
  }
  return text;
}

/** The info dictionary's Title when it names the document, else undefined. */
export function pdfTitle(info: Record<string, unknown>): string | undefined {
  const raw = typeof info.Title === "string" ? info.Title : "";
  // Control characters (a NUL that survives, a stray form feed) are never part of a name.
  const title = utf16WithoutMark(raw).replace(/[\u0000-\u001f\u007f]/g, " ").replace(/\s+/g, " ").trim();
  if (!/\p{L}/u.test(title)) return undefined;
  if (BOILERPLATE.test(title) || TOOL_PREFIX.test(title) || FILE_NAME.test(title)) return undefined;
  if (/^[a-z]:[\\/]|^\/|[\\/][^ ]*[\\/]/i.test(title)) return undefined;
  return title;
}
