/**
 * The title in a PDF's info dictionary, unless it is what a tool wrote on its
 * own: "Microsoft Word - report.docx", "Untitled", "(anonymous)", a file name
 * or a path. Such a title would name every document after its software.
 */
const BOILERPLATE = /^(?:untitled(?:\s*\d*)?|\(?anonymous\)?|title|no title|document\s*\d*|slide\s*\d+|powerpoint presentation|presentation\d*|unknown|none|null|default)$/i;
const TOOL_PREFIX = /^(?:microsoft (?:word|powerpoint|excel)|word|excel|powerpoint)\s+-\s+/i;
const FILE_NAME = /\.(?:docx?|pptx?|xlsx?|pdf|odt|rtf|txt|tex|dvi|ps|eps|indd|qxd|pages|key|html?|md|wpd)$/i;

/** The info dictionary's Title when it names the document, else undefined. */
export function pdfTitle(info: Record<string, unknown>): string | undefined {
  const raw = typeof info.Title === "string" ? info.Title : "";
  const title = raw.replace(/\s+/g, " ").trim();
  if (!/\p{L}/u.test(title)) return undefined;
  if (BOILERPLATE.test(title) || TOOL_PREFIX.test(title) || FILE_NAME.test(title)) return undefined;
  if (/^[a-z]:[\\/]|^\/|[\\/][^ ]*[\\/]/i.test(title)) return undefined;
  return title;
}
