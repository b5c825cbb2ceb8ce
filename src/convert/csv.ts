/** .csv -> one Markdown table. The delimiter is whichever of , ; tab | splits the first lines most consistently. */
import { basename } from "node:path";
import { decodeText } from "./decode-text.ts";
import type { Converted } from "./types.ts";

const DELIMITERS = [",", ";", "\t", "|"];

/** Parses delimited text with RFC 4180 quoting. */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows.filter((r) => r.some((cell) => cell.trim()));
}

function detectDelimiter(text: string): string {
  const sample = text.split(/\r?\n/).slice(0, 20).join("\n");
  let best = ",";
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const widths = parseDelimited(sample, d).map((r) => r.length);
    if (widths.length === 0 || widths[0]! < 2) continue;
    const consistent = widths.filter((w) => w === widths[0]).length / widths.length;
    const score = consistent * widths[0]!;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

const cell = (value: string) => value.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").trim();

export function rowsToMarkdownTable(rows: string[][]): string {
  if (rows.length === 0) return "";
  // A reduce, not spread arguments: 1.6 million rows (a 20 MB CSV) overflowed the stack as arguments.
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? "")).join(" | ")} |`;
  return [line(rows[0]!), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)].join("\n");
}

export function convertCsv(bytes: Uint8Array, path: string): Converted {
  const { text, warnings } = decodeText(bytes, basename(path));
  return { markdown: rowsToMarkdownTable(parseDelimited(text, detectDelimiter(text))), warnings };
}
