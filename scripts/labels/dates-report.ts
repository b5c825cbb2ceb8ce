#!/usr/bin/env bun
/**
 * bun scripts/labels/dates-report.ts [folder]
 *
 * Runs the document-date extractor over every file under
 * ../shared/corpus/office (or the folder given), each converted the way a
 * sync converts it (the isolated converter worker with the configuration's
 * time limit, size cap and OCR settings, as ingest/prepare-file.ts passes them), so a
 * PDF whose pages carry too little text is OCRed, and prints a Markdown table: file, date, source. A file that
 * fails to convert is listed with its error. Reports, never asserts; exits 0
 * with a message when the shared corpus is not beside the checkout.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, relative, resolve } from "node:path";
import { loadConfig } from "../../src/config/load-config.ts";
import { convertIsolated } from "../../src/convert/isolated-convert.ts";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { documentDate } from "../../src/labels/document-date.ts";
import { ocrSettings } from "../../src/ocr/settings.ts";

const folder = resolve(process.argv[2] ?? join(import.meta.dir, "../../../shared/corpus/office"));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

if (!existsSync(folder)) {
  console.log(`No corpus at ${folder}: nothing to report (the shared corpus sits beside the checkout as ../shared).`);
  process.exit(0);
}

const config = loadConfig({ flags: { baseDirs: [folder] } });
const options = { timeoutMs: config.convertTimeoutMs, maxBytes: config.maxFileSize, ocrMinCharsPerPage: config.ocrMinCharsPerPage, ocr: ocrSettings(config) };
const rows: string[] = ["| file | date | source |", "|---|---|---|"];
const counts: Record<string, number> = {};
for (const path of walk(folder)) {
  const file = relative(folder, path);
  // Files no converter takes (the corpus's lookalikes.json index) are not documents a sync would date.
  if (!SUPPORTED_EXTENSIONS.has(extname(path).toLowerCase())) continue;
  try {
    const converted = await convertIsolated(path, new Uint8Array(readFileSync(path)), options);
    const found = documentDate({ text: converted.markdown, fileName: basename(path), mtimeMs: statSync(path).mtimeMs });
    const source = found?.source ?? "none";
    counts[source] = (counts[source] ?? 0) + 1;
    rows.push(`| ${file} | ${found?.date ?? "–"} | ${source} |`);
  } catch (error) {
    counts.failed = (counts.failed ?? 0) + 1;
    rows.push(`| ${file} | – | conversion failed: ${(error as Error).message.split("\n")[0]} |`);
  }
  process.stderr.write(`[dates] ${file}\n`);
}
console.log(rows.join("\n"));
console.log(`\n${Object.entries(counts).map(([source, n]) => `${source}: ${n}`).join(", ")}`);
process.exit(0);
