/**
 * Keeps Word equations, which mammoth drops: each m:oMath in the document
 * body is replaced by a text run holding a placeholder word, the package is
 * zipped again (stored, so no second round of compression work), and the
 * placeholders become $...$ (inline) or $$...$$ (display) LaTeX once the
 * Markdown is made. Placeholders rather than the LaTeX itself, because the
 * HTML-to-Markdown step escapes the backslashes and underscores LaTeX needs.
 */
import { zipSync, type Zippable } from "fflate";
import { ommlToLatex } from "./docx-math-latex.ts";
import { openZip } from "./zip.ts";
import { parseXml } from "./zip-xml.ts";

const WORD_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
// An element that self-closes (<m:oMath/>) holds nothing and must not reach the next one's end tag.
const MATH = /<(\w+):oMathPara(?:\s[^>]*)?(?<!\/)>[\s\S]*?<\/\1:oMathPara>|<(\w+):oMath(?:\s[^>]*)?(?<!\/)>[\s\S]*?<\/\2:oMath>/g;
const PLACEHOLDER = /MINIRAGMATH(\d+)X/g;

export interface MathDocument {
  /** The package to hand to mammoth (the input itself when it has no equations). */
  bytes: Uint8Array;
  /** Puts the LaTeX back in place of the placeholders. */
  restore(markdown: string): string;
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The document with its equations turned into placeholder runs; path and maxBytes as for openZip. */
export function withMathAsText(bytes: Uint8Array, path: string, maxBytes: number, documentXml: string): MathDocument {
  const unchanged = { bytes, restore: (markdown: string) => markdown };
  if (!/<\w+:oMath\b/.test(documentXml)) return unchanged;
  const w = new RegExp(`xmlns:(\\w+)="${WORD_NS}"`).exec(documentXml)?.[1] ?? "w";
  const formulas: string[] = [];
  const replaced = documentXml.replace(MATH, (fragment) => {
    const root = parseXml(fragment);
    const latex = root ? ommlToLatex(root) : "";
    if (!latex) return "";
    const display = /^<\w+:oMathPara\b/.test(fragment);
    formulas.push(display ? `$$${latex}$$` : `$${latex}$`);
    return `<${w}:r><${w}:t xml:space="preserve">MINIRAGMATH${formulas.length - 1}X</${w}:t></${w}:r>`;
  });
  if (formulas.length === 0) return unchanged;
  // A fresh reader: its own budget, so the parts read for the title and the check do not count twice.
  const zip = openZip(bytes, path, maxBytes);
  const files: Zippable = {};
  for (const entry of zip.entries) files[entry.name] = [zip.bytes(entry.name), { level: 0 }];
  const main = zip.entries.find((e) => e.name.toLowerCase() === "word/document.xml")!.name;
  files[main] = [new TextEncoder().encode(replaced), { level: 0 }];
  return {
    bytes: zipSync(files),
    restore: (markdown) =>
      markdown
        .split("\n")
        .map((line) => line.replace(PLACEHOLDER, (_m, i: string) => {
          const formula = formulas[Number(i)] ?? "";
          // Inside a Markdown table a bare "|" would end the cell.
          return /^\s*\|/.test(line) ? formula.replace(/\|/g, "\\|") : formula;
        }))
        .join("\n"),
  };
}
