/**
 * How much of a passage is link text: the letters inside Markdown link labels
 * (`[label](target)`) over every letter of the passage once the link targets
 * are left out. A table-of-contents page converts to one link per entry, each
 * entry the words of a heading or a question on another page, so its entries
 * match the questions that page answers, often better than the page itself.
 * A passage that is mostly links points elsewhere; prose with a link in it
 * does not.
 */

/**
 * A link: `[label](target)` or `[label](target "title")`, the label allowing
 * escaped brackets (turndown writes `\[`), the target no spaces or parentheses
 * (turndown escapes them) but one balanced pair, as in Wikipedia's URLs.
 */
const MARKDOWN_LINK = /\[((?:[^[\]\\]|\\.)*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;
const LETTER = /\p{L}/gu;

/**
 * From this share on, a passage counts as navigation: two letters of link
 * label to every letter of other text. The Debian FAQ's contents entries are
 * all label (share 1); a paragraph of prose that links a few words is far
 * below it.
 */
export const NAVIGATION_SHARE = 2 / 3;

function letters(text: string): number {
  return text.match(LETTER)?.length ?? 0;
}

/** The share of the passage's letters that are link labels; 0 without links or letters. */
export function linkShare(markdown: string): number {
  if (!markdown.includes("](")) return 0;
  let inLabels = 0;
  const rest = markdown.replace(MARKDOWN_LINK, (_, label: string) => {
    inLabels += letters(label);
    return " ";
  });
  const all = inLabels + letters(rest);
  return all === 0 ? 0 : inLabels / all;
}

/** Whether a passage is mostly links (see NAVIGATION_SHARE). */
export function isNavigation(markdown: string): boolean {
  return linkShare(markdown) >= NAVIGATION_SHARE;
}
