/**
 * Markup too large to hold as a tree, read as a stream of text instead.
 * Every tree this program builds costs far more than its source: measured in
 * the conversion worker, 5 MB of HTML took 156 MiB as linkedom's tree and
 * 416 MiB through turndown, and a 5 MB document.xml 606 MiB through mammoth;
 * a 90 MB slide or document part took 1.7 to 3.4 GB and the whole time limit.
 * Past MAX_TREE_MARKUP characters a part is read by htmlparser2's tokenizer
 * with no tree: its text, a paragraph per block, headings kept as headings.
 * Tables, lists and formatting are lost, and the converter says so in a
 * warning; the text is all there, and memory stays a few times the source.
 */
import { Parser } from "htmlparser2";

/**
 * The longest markup (characters of one HTML page, EPUB chapter or XML
 * part) read as a tree. 3 MiB keeps a conversion near 350 MiB, so a sync
 * with e5 loaded (about 370 MiB before any file) stays well under 1 GB.
 */
export const MAX_TREE_MARKUP = 3 * 1024 * 1024;

/** Characters handed to the parser per write. */
const PIECE = 64 * 1024;
/** Pieces between collections: the parser's per-tag objects and strings for 4 MB of markup. */
const PIECES_PER_COLLECTION = 64;

export type MarkupDialect = "html" | "wordprocessingml" | "drawingml";

/** Element names that end a paragraph, by dialect (local names, lower case). */
const BLOCKS: Record<MarkupDialect, Set<string>> = {
  html: new Set(["p", "div", "section", "article", "main", "header", "footer", "aside", "blockquote", "pre", "li", "ul", "ol", "dl", "dt", "dd", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "figure", "figcaption", "address", "body"]),
  wordprocessingml: new Set(["p"]),
  drawingml: new Set(["p"]),
};
/** Elements whose content is not text to index. */
const SKIPPED: Record<MarkupDialect, Set<string>> = {
  html: new Set(["script", "style", "noscript", "template", "svg", "head", "nav", "iframe", "object"]),
  wordprocessingml: new Set(["deltext", "instrtext"]),
  drawingml: new Set([]),
};
/** Elements whose content is the text, where a dialect keeps text only inside some (OOXML's w:t, a:t); null: all text counts. */
const TEXT: Record<MarkupDialect, Set<string> | null> = {
  html: null,
  wordprocessingml: new Set(["t"]),
  drawingml: new Set(["t"]),
};
/** Line breaks and tabs written as elements. */
const BREAKS: Record<MarkupDialect, Record<string, string>> = {
  html: { br: "\n", td: " ", th: " " },
  wordprocessingml: { br: "\n", cr: "\n", tab: " " },
  drawingml: { br: "\n" },
};

const local = (name: string) => name.slice(name.indexOf(":") + 1).toLowerCase();

/** Word's heading styles as written in w:pStyle (Heading1, heading 2, Title), as a level. */
function wordHeading(style: string): number {
  if (/^title$/i.test(style)) return 1;
  const m = /^heading\s*([1-6])$/i.exec(style);
  return m ? Number(m[1]) : 0;
}

/**
 * The markup's text as Markdown paragraphs, read as a stream; `title` is
 * HTML's <title>, when there is one. `markup` is the whole text, or a
 * function that hands it over piece by piece (a zip part as it inflates).
 */
export function streamedText(markup: string | ((write: (piece: string) => void) => void), dialect: MarkupDialect): { markdown: string; title?: string } {
  // Paragraphs are joined a few thousand at a time: a million short strings held apart cost more than their text.
  const done: string[] = [];
  let paragraphs: string[] = [];
  let current: string[] = [];
  let heading = 0;
  let skipping = 0;
  let inText = 0;
  let inTitle = false;
  let title = "";
  const end = () => {
    const text = current.join("").replace(/\s+/g, " ").trim();
    if (text) paragraphs.push(heading ? `${"#".repeat(heading)} ${text}` : text);
    if (paragraphs.length >= 4096) {
      done.push(paragraphs.join("\n\n"));
      paragraphs = [];
      // The pieces the paragraphs were made of are garbage now: left to the engine, 50 MB of HTML peaked 425 MiB
      // over its input; collected every 65,536 paragraphs, 190 MiB.
      if (done.length % 16 === 0) Bun.gc(false);
    }
    current = [];
    heading = 0;
  };
  const textOnlyIn = TEXT[dialect];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const tag = local(name);
        if (dialect === "html" && tag === "title") inTitle = true;
        if (SKIPPED[dialect].has(tag)) skipping++;
        if (skipping) return;
        if (BLOCKS[dialect].has(tag)) end();
        const brk = BREAKS[dialect][tag];
        if (brk) current.push(brk);
        if (textOnlyIn?.has(tag)) inText++;
        if (dialect === "html" && /^h[1-6]$/.test(tag)) heading = Number(tag[1]);
        if (dialect === "wordprocessingml" && tag === "pstyle") heading = wordHeading(attributes["w:val"] ?? attributes.val ?? "");
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipping || (textOnlyIn && !inText)) return;
        current.push(text);
        // A paragraph of millions of pieces (spans of a space each) held as separate strings took hundreds of MiB: joined as it grows.
        if (current.length >= 4096) current = [current.join("").replace(/\s+/g, " ")];
      },
      onclosetag(name) {
        const tag = local(name);
        if (tag === "title") inTitle = false;
        if (SKIPPED[dialect].has(tag)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (skipping) return;
        if (textOnlyIn?.has(tag)) inText = Math.max(0, inText - 1);
        // A heading's level was set on its open tag (or, in Word, by w:pStyle inside the paragraph), so it is kept to here.
        if (BLOCKS[dialect].has(tag)) end();
      },
    },
    { xmlMode: dialect !== "html", decodeEntities: true },
  );
  // In pieces: htmlparser2 keeps what it was given until the tokenizer is past it, so one write of 50 MB held all of it, sliced.
  let written = 0;
  const write = (piece: string) => {
    parser.write(piece);
    if (++written % PIECES_PER_COLLECTION === 0) Bun.gc(false);
  };
  if (typeof markup === "string") for (let at = 0; at < markup.length; at += PIECE) write(markup.slice(at, at + PIECE));
  else markup(write);
  parser.end();
  end();
  const cleanTitle = title.replace(/\s+/g, " ").trim();
  done.push(paragraphs.join("\n\n"));
  return { markdown: done.filter(Boolean).join("\n\n"), ...(cleanTitle ? { title: cleanTitle } : {}) };
}

/** The warning a converter gives when it read a part as a stream. */
export function streamedWarning(what: string, characters: number): string {
  return `${what} is ${(characters / 1048576).toFixed(1)} MB of markup, more than the ${MAX_TREE_MARKUP / 1048576} MB read with its structure: it was read as plain paragraphs and headings, without tables, lists or formatting`;
}
