/** Tesseract's page text as paragraphs of lines (pure). */
import { fixMixedScripts } from "./mixed-scripts.ts";

/**
 * Blank lines part paragraphs. A line with no letter or digit is dropped: it
 * is what tesseract reads in specks, rules and illustrations ("~ - |").
 * Latin and Cyrillic look-alikes are put into their word's alphabet.
 */
export function ocrParagraphs(text: string): string[][] {
  const paragraphs: string[][] = [];
  for (const chunk of text.split(/\n\s*\n/)) {
    const lines = chunk
      .split("\n")
      .map((l) => fixMixedScripts(l.replace(/\s+/g, " ").trim()))
      .filter((l) => /[\p{L}\p{N}]/u.test(l));
    if (lines.length) paragraphs.push(lines);
  }
  return paragraphs;
}
