/** A unit's own text: what follows its context lines (seeded title, label, table header, split note). */

/** The text after its first `lines` lines. */
export function ownText(text: string, lines: number): string {
  let at = -1;
  for (let line = 0; line < lines; line++) {
    at = text.indexOf("\n", at + 1);
    if (at < 0) return "";
  }
  return text.slice(at + 1);
}
