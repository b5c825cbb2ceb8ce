#!/usr/bin/env bun
/**
 * bun scripts/bench/ocr.ts [--lang eng+rus] [--only SUBSTRING]... [--diff]
 *
 * OCR quality and speed over ../shared/corpus/fixtures/ocr/** and the scanned
 * PDFs in fixtures/markitdown*: character error rate against each ground truth
 * (a .txt transcript, else expectations.json ocr_text; spaces collapsed), word
 * accuracy (punctuation standing alone joins the word before it), the
 * must_include / ocr_expected_derived strings found, pages/s and peak RSS.
 * Orientation: the PDF scans whose images pdf.js decodes are also read turned
 * by 90, 180 and 270 degrees (turned in memory), against their upright read.
 * Everything runs in this process through the real converters and worker
 * pool, with the system's language data. Reports, never asserts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { convertImage } from "../../src/convert/image.ts";
import { PDF_OPTIONS, pdfEngine } from "../../src/convert/pdf-engine.ts";
import { pageImage, type PdfPageProxy } from "../../src/convert/pdf-images.ts";
import { convertPdf } from "../../src/convert/pdf.ts";
import type { Converted } from "../../src/convert/types.ts";
import { type GrayImage, toPgm } from "../../src/ocr/gray-image.ts";
import { recognizePages, releaseOcrPool } from "../../src/ocr/pool.ts";
import { CORPUS } from "./lib/datasets.ts";

const argv = process.argv.slice(2);
const languages = (argv.includes("--lang") ? argv[argv.indexOf("--lang") + 1]! : "eng+rus").split("+");
/** --only keeps the inputs whose corpus path contains one of the given strings (while iterating: the full run takes minutes). */
const only = argv.flatMap((a, i) => (argv[i - 1] === "--only" ? [a] : []));
const showDiff = argv.includes("--diff");
const ocr = { languages, cacheDir: join(import.meta.dir, "../../bench-results/ocr-cache") };
const expectations: Record<string, { must_include?: string[]; ocr_expected_derived?: string[]; ocr_text?: string; ground_truth_file?: string; has_text_layer?: boolean }> = JSON.parse(readFileSync(join(CORPUS, "expectations.json"), "utf8"));

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

const normalize = (s: string) => s.replace(/\\([#*_>|`-])/g, "$1").replace(/[“”„«»]/g, '"').replace(/[‘’]/g, "'").replace(/\s+/g, " ").trim();

function distance<T>(a: T[], b: T[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

const cer = (out: string, truth: string) => distance([...normalize(out)], [...normalize(truth)]) / Math.max(1, [...normalize(truth)].length);
/**
 * Words for word accuracy: a token of punctuation only ("...", "-") is joined to the word before it, in the
 * transcript and the read alike. Only spaces are dropped, never a character: transcripts differ in spacing
 * before punctuation (the poem's truth has "голубом! ..." where its image prints "голубом!..."), and a wrong
 * mark still makes its word wrong.
 */
const words = (s: string) => normalize(s).split(" ").reduce<string[]>((out, w) => (out.length && !/[\p{L}\p{N}]/u.test(w) ? [...out.slice(0, -1), out.at(-1) + w] : [...out, w]), []);
const wordAccuracy = (out: string, truth: string, split = words) => {
  const expected = split(truth);
  return Math.max(0, 1 - distance(split(out), expected) / expected.length);
};
/** Words as the spaces alone cut them (this bench's first measure, kept beside the one above for comparison). */
const spaced = (s: string) => normalize(s).split(" ");

/** The words that differ, as "truth -> read" runs, from a word-level alignment (for --diff). */
function wordDiff(out: string, truth: string): string[] {
  const a = words(truth);
  const b = words(out);
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  const pairs: [string, string][] = [];
  for (let i = a.length, j = b.length; i > 0 || j > 0; ) {
    if (i > 0 && j > 0 && d[i]![j] === d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)) pairs.unshift([a[--i]!, b[--j]!]);
    else if (i > 0 && d[i]![j] === d[i - 1]![j]! + 1) pairs.unshift([a[--i]!, ""]);
    else pairs.unshift(["", b[--j]!]);
  }
  const runs: string[] = [];
  let run: [string[], string[]] | null = null;
  for (const [t, o] of [...pairs, ["", ""] as [string, string]]) {
    if (t !== o) (run ??= [[], []]) && (t && run[0].push(t), o && run[1].push(o));
    else if (run) {
      runs.push(`${run[0].join(" ")} -> ${run[1].join(" ")}`);
      run = null;
    }
  }
  return runs;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

const SCAN = /\.(png|jpe?g|tiff?|bmp|webp|pdf)$/i;
const inputs = [
  ...files(join(CORPUS, "fixtures/ocr")).filter((f) => SCAN.test(f)),
  ...["fixtures/markitdown", "fixtures/markitdown-ocr"].flatMap((d) => files(join(CORPUS, d))).filter((f) => f.endsWith(".pdf") && expectations[relative(CORPUS, f)]?.has_text_layer === false),
].filter((f) => only.length === 0 || only.some((o) => relative(CORPUS, f).includes(o)));

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const rows: string[] = ["| file | pages | s | CER | word acc. | word acc. by spaces | strings found | note |", "|---|---|---|---|---|---|---|---|"];
let totalPages = 0;
let totalSeconds = 0;
for (const file of inputs) {
  const key = relative(CORPUS, file);
  const e = expectations[key] ?? {};
  const bytes = new Uint8Array(readFileSync(file));
  const start = performance.now();
  let converted: Converted;
  try {
    converted = file.endsWith(".pdf") ? await convertPdf(bytes, file, { ocr }) : await convertImage(bytes, file, { ocr });
  } catch (error) {
    rows.push(`| ${key} | | | | | | | failed: ${(error as Error).message} |`);
    continue;
  }
  const seconds = (performance.now() - start) / 1000;
  const pages = new Set(converted.pages?.map((p) => p.page) ?? [1]).size;
  totalPages += pages;
  totalSeconds += seconds;
  const truthFile = e.ground_truth_file ? join(CORPUS, e.ground_truth_file) : null;
  const truth = truthFile && existsSync(truthFile) ? readFileSync(truthFile, "utf8") : e.ocr_text;
  const strings = [...(e.must_include ?? []), ...(e.ocr_expected_derived ?? [])].filter((s) => s);
  const found = strings.filter((s) => normalize(converted.markdown).includes(normalize(s))).length;
  const note = key.endsWith("multipage.pdf") ? `page starts ${JSON.stringify(converted.pages?.map((p) => p.page))}; page 4 (text layer) kept: ${converted.markdown.includes("Percentage")}` : "";
  rows.push(`| ${key} | ${pages} | ${seconds.toFixed(1)} | ${truth ? pct(cer(converted.markdown, truth)) : ""} | ${truth ? pct(wordAccuracy(converted.markdown, truth)) : ""} | ${truth ? pct(wordAccuracy(converted.markdown, truth, spaced)) : ""} | ${strings.length ? `${found}/${strings.length}` : ""} | ${note} |`);
  console.error(rows.at(-1));
  if (showDiff && truth) for (const line of wordDiff(converted.markdown, truth)) console.error(`    ${line}`);
}

/** Turns a grayscale page by a quarter turn clockwise, times n. */
function turn(image: GrayImage, quarters: number): GrayImage {
  let out = image;
  for (let q = 0; q < quarters; q++) {
    const { width, height, data } = out;
    const next = new Uint8Array(data.length);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) next[x * height + (height - 1 - y)] = data[y * width + x]!;
    out = { width: height, height: width, data: next };
  }
  return out;
}

const turnRows: string[] = ["| page | CER at 90 | CER at 180 | CER at 270 | (against the upright read) |", "|---|---|---|---|---|"];
const { OPS, getDocument } = await pdfEngine();
const turned = ["fixtures/markitdown-ocr/pdf_scanned_invoice.pdf", "fixtures/ocr/ocrmypdf/francais.pdf", "fixtures/ocr/ocrmypdf/c02-22.pdf", "fixtures/markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf"];
for (const key of turned.filter((k) => only.length === 0 || only.some((o) => k.includes(o)))) {
  const pdf = await getDocument({ data: new Uint8Array(readFileSync(join(CORPUS, key))), ...PDF_OPTIONS }).promise;
  const page = await pdf.getPage(1);
  const { image, dpi } = await pageImage(page as unknown as PdfPageProxy, OPS as Record<string, number>);
  await pdf.loadingTask.destroy();
  if (!image) continue;
  const { texts } = await recognizePages(ocr, 4, async (q) => ({ bytes: toPgm(turn(image, q)), dpi }));
  turnRows.push(`| ${key} p.1 | ${[1, 2, 3].map((q) => pct(cer(texts[q] ?? "", texts[0] ?? ""))).join(" | ")} | |`);
  console.error(turnRows.at(-1));
}
releaseOcrPool();
clearInterval(sampler);

console.log(`OCR benchmark, languages ${languages.join("+")}, ${navigator.hardwareConcurrency} cores\n`);
console.log(rows.join("\n"));
console.log(`\n${totalPages} pages in ${totalSeconds.toFixed(1)} s: ${(totalPages / totalSeconds).toFixed(2)} pages/s; peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB\n`);
console.log(turnRows.join("\n"));
