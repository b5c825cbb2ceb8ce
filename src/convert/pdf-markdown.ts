/**
 * Blocks of every page -> one Markdown text and its page map: where in the
 * text each page's text starts. A paragraph that runs over a page break is
 * joined again (the page map then points into it), unless the last line
 * before the break stopped short or the next page opens with a list item or
 * an indented line. Footnotes set smaller at the foot of a page stay after
 * the joined paragraph, so their page starts again there: the map lists a
 * page once for each stretch of text from it.
 */
import type { LineOnPage, PdfBlock } from "./pdf-blocks.ts";
import { joinLines, type Vocabulary } from "./pdf-hyphens.ts";
import { tableMarkdown } from "./pdf-tables.ts";

export interface PageStart {
  page: number;
  start: number;
}

const BULLET = /^[•◦▪‣●○■□►]\s*/u;

type Paragraph = Extract<PdfBlock, { kind: "paragraph" }>;

function continues(last: PdfBlock | undefined, block: PdfBlock): last is Paragraph {
  if (last?.kind !== "paragraph" || block.kind !== "paragraph") return false;
  const first = block.lines[0]!;
  const end = last.lines.at(-1)!;
  return (
    first.page !== end.page &&
    !last.endsShort &&
    Math.abs(block.firstIndent - last.lastIndent) <= 0.8 * block.size &&
    Math.abs(last.size - block.size) <= 0.15 * last.size &&
    !BULLET.test(first.text) &&
    (/^[\p{Ll}\p{N}(]/u.test(first.text) || !/[.!?:;]$/.test(end.text))
  );
}

/**
 * Merges a paragraph that continues across a page break into the one before
 * it. Footnotes set smaller at the foot of the page are stepped over and stay
 * after the joined paragraph.
 */
function joinAcrossPages(blocks: PdfBlock[]): PdfBlock[] {
  const out: PdfBlock[] = [];
  for (const block of blocks) {
    let at = out.length - 1;
    while (at > 0 && block.kind === "paragraph" && out[at]!.kind === "paragraph" && (out[at] as Paragraph).size < 0.9 * block.size) at--;
    const last = out[at];
    if (continues(last, block) && block.kind === "paragraph") out[at] = { ...last, lines: [...last.lines, ...block.lines], lastIndent: block.lastIndent, endsShort: block.endsShort };
    else out.push(block);
  }
  return out;
}

/** Markdown's own syntax at the start of a paragraph that is plain text in the PDF. */
function escapeStart(text: string): string {
  return text.replace(BULLET, "- ").replace(/^(#{1,6}\s|>|```|\|)/, "\\$1");
}

function render(block: PdfBlock, vocabulary: Vocabulary): { text: string; lines: { offset: number; page: number }[] } {
  if (block.kind === "table") return { text: tableMarkdown(block.rows), lines: [{ offset: 0, page: block.page }] };
  const { text, starts } = joinLines(block.lines.map((l: LineOnPage) => l.text), vocabulary);
  if (block.kind === "heading") {
    const marks = `${"#".repeat(block.level)} `;
    return { text: marks + text, lines: block.lines.map((l, i) => ({ offset: i === 0 ? 0 : marks.length + starts[i]!, page: l.page })) };
  }
  const escaped = escapeStart(text);
  const shift = escaped.length - text.length;
  return { text: escaped, lines: block.lines.map((l, i) => ({ offset: i === 0 ? 0 : starts[i]! + shift, page: l.page })) };
}

/** The document's Markdown and where each stretch of text from one page starts in it. */
export function blocksToMarkdown(blocks: PdfBlock[], vocabulary: Vocabulary): { markdown: string; pages: PageStart[] } {
  let markdown = "";
  const pages: PageStart[] = [];
  for (const block of joinAcrossPages(blocks)) {
    const { text, lines } = render(block, vocabulary);
    if (!text.trim()) continue;
    if (markdown) markdown += "\n\n";
    for (const { offset, page } of lines) {
      if (pages.at(-1)?.page !== page) pages.push({ page, start: markdown.length + offset });
    }
    markdown += text;
  }
  return { markdown, pages };
}
