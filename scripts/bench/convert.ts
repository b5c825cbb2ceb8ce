#!/usr/bin/env bun
/**
 * bun scripts/bench/convert.ts (also: bun run bench --convert)
 *
 * Runs every registered converter over ../shared/corpus/fixtures/** and
 * ../shared/corpus/office/**, checks the corpus's expectations.json
 * (must_include, must_include_case_insensitive, must_exclude; the
 * format_specific strings, which assume markitdown's exact Markdown, are
 * compared with markup stripped on both sides) and prints per-format pass
 * rates, MB/s, peak RSS and every failure with the string it was about.
 * OCR-only expectations (fixtures/ocr, fixtures/markitdown-ocr, image files,
 * PDFs without a text layer) are reported apart and not counted. Formats
 * without a converter are listed as such. Reports, never asserts.
 *
 * Each format runs in its own child process (--child .ext), so its peak RSS
 * is its own; files convert through the same worker and time limit as a sync.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { extname, join, relative } from "node:path";
import { CORPUS } from "./lib/datasets.ts";
import { markdownTable as table } from "./lib/markdown-table.ts";
import { peakRss, RESULTS, timedRun } from "./lib/setup.ts";

interface Expectation {
  must_include?: string[];
  must_include_case_insensitive?: string[];
  must_exclude?: string[];
  format_specific?: string[];
  has_text_layer?: boolean;
}

/** One file's outcome, as a child reports it. */
interface FileResult {
  file: string;
  bytes: number;
  ms: number;
  error?: string;
  checked: number;
  missing: string[];
  excludedChecked: number;
  excludedFound: string[];
}

const FOLDERS = ["fixtures", "office"];
/** The corpus's own indexes, not documents. */
const NOT_DOCUMENTS = new Set(["expectations.json", "SOURCES.md", "lookalikes.json"]);
const IMAGES = new Set([".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp", ".gif"]);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : NOT_DOCUMENTS.has(e.name) ? [] : [join(dir, e.name)]));
}

const formatOf = (file: string) => extname(file).toLowerCase() || "(none)";

function isOcrOnly(file: string, expected: Expectation | undefined): boolean {
  return file.startsWith("fixtures/ocr/") || file.startsWith("fixtures/markitdown-ocr/") || IMAGES.has(formatOf(file)) || expected?.has_text_layer === false;
}

/** Links as their text, no bold, no backslash escapes: as the test helper and markitdown's PDF table test compare. */
const plain = (text: string) =>
  text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/\\([\\_*[\]|#.-])/g, "$1");

/** Loose, for format_specific strings: all heading, emphasis, table and quote marks gone, spaces collapsed, lower case. */
const flat = (text: string) =>
  text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#*_`|>\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

function check(text: string, expected: Expectation | undefined): Pick<FileResult, "checked" | "missing" | "excludedChecked" | "excludedFound"> {
  const loose = new Set(expected?.format_specific ?? []);
  const plainText = plain(text);
  const flatText = loose.size ? flat(text) : "";
  const lower = text.toLowerCase();
  const found = (s: string) => text.includes(s) || plainText.includes(s) || (loose.has(s) && flatText.includes(flat(s)));
  const include = expected?.must_include ?? [];
  const insensitive = expected?.must_include_case_insensitive ?? [];
  const exclude = expected?.must_exclude ?? [];
  return {
    checked: include.length + insensitive.length,
    missing: [...include.filter((s) => !found(s)), ...insensitive.filter((s) => !lower.includes(s.toLowerCase()))],
    excludedChecked: exclude.length,
    excludedFound: exclude.filter((s) => text.includes(s)),
  };
}

/** Child: converts every corpus file of one format and prints the results as JSON. */
async function child(format: string, files: string[], expectations: Record<string, Expectation>): Promise<void> {
  const { convertIsolated } = await import("../../src/convert/isolated-convert.ts");
  const { DEFAULT_CONVERT_TIMEOUT_SECONDS, DEFAULT_MAX_FILE_SIZE } = await import("../../src/config/defaults.ts");
  const results: FileResult[] = [];
  for (const file of files.filter((f) => formatOf(f) === format)) {
    const bytes = new Uint8Array(readFileSync(join(CORPUS, file)));
    const began = performance.now();
    try {
      const converted = await convertIsolated(file, bytes, { timeoutMs: DEFAULT_CONVERT_TIMEOUT_SECONDS * 1000, maxBytes: DEFAULT_MAX_FILE_SIZE });
      const ms = performance.now() - began;
      results.push({ file, bytes: bytes.length, ms, ...check(`${converted.metadataTitle ?? ""}\n${converted.markdown}`, expectations[file]) });
    } catch (error) {
      const message = (error as Error).message.split("\n")[0]!;
      const expected = expectations[file];
      results.push({ file, bytes: bytes.length, ms: performance.now() - began, error: message, checked: (expected?.must_include?.length ?? 0) + (expected?.must_include_case_insensitive?.length ?? 0), missing: [], excludedChecked: expected?.must_exclude?.length ?? 0, excludedFound: [] });
    }
    process.stderr.write(`[convert ${format}] ${file}\n`);
  }
  // The parent polls every 50 ms and misses a child that is done sooner: the child tells its own peak.
  process.stdout.write(JSON.stringify({ results, peakRss: peakRss(process.pid) } satisfies ChildReport));
}

interface ChildReport {
  results: FileResult[];
  peakRss: number;
}

const pct = (n: number, d: number) => (d === 0 ? "–" : `${n}/${d} (${((100 * n) / d).toFixed(1)}%)`);
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
interface FormatRun {
  format: string;
  results: FileResult[];
  peakRss: number;
  crashed?: string;
}

/** Included strings found, for the rate: a failed conversion finds none of its file's strings. */
const includeFound = (r: FileResult) => (r.error ? 0 : r.checked - r.missing.length);
const excludeHeld = (r: FileResult) => (r.error ? 0 : r.excludedChecked - r.excludedFound.length);

function formatRow(format: string, results: FileResult[], peakRss: number): (string | number)[] {
  const ok = results.filter((r) => !r.error);
  const seconds = ok.reduce((s, r) => s + r.ms, 0) / 1000;
  const bytes = ok.reduce((s, r) => s + r.bytes, 0);
  return [
    format,
    results.length,
    ok.length,
    results.length - ok.length,
    pct(results.reduce((s, r) => s + includeFound(r), 0), results.reduce((s, r) => s + r.checked, 0)),
    pct(results.reduce((s, r) => s + excludeHeld(r), 0), results.reduce((s, r) => s + r.excludedChecked, 0)),
    mb(bytes),
    seconds > 0 ? (bytes / 1e6 / seconds).toFixed(2) : "–",
    Number.isFinite(peakRss) ? `${Math.round(peakRss / 2 ** 20)} MiB` : "–",
  ];
}

function render(runs: FormatRun[], missingConverter: Map<string, string[]>, expectations: Record<string, Expectation>, minutes: number): string {
  const head = ["format", "files", "converted", "failed", "must_include", "must_exclude", "MB", "MB/s", "peak RSS"];
  const split = (ocr: boolean) => runs.map((run) => ({ ...run, results: run.results.filter((r) => isOcrOnly(r.file, expectations[r.file]) === ocr) })).filter((run) => run.results.length);
  const out = [`# Conversion benchmark`, `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, bun ${Bun.version}, ${CORPUS}. Took ${minutes.toFixed(1)} min. MB/s counts converted files only, including each converter's first load; peak RSS is the format's own process.`];
  const counted = split(false);
  const all = counted.flatMap((r) => r.results);
  out.push("## Counted (not OCR)", table(head, [...counted.map((r) => formatRow(r.format, r.results, r.peakRss)), formatRow("**all**", all, Math.max(...counted.map((r) => r.peakRss).filter(Number.isFinite)))]));
  const noConverter = [...missingConverter].map(([format, files]) => {
    const strings = files.reduce((s, f) => s + (expectations[f]?.must_include?.length ?? 0), 0);
    return [format, files.length, strings];
  });
  if (noConverter.length) out.push("## No converter", "Not counted above; their must_include strings are listed here only.", table(["format", "files", "must_include strings"], noConverter));
  const ocr = split(true);
  if (ocr.length) out.push("## OCR-only (reported apart, not counted)", table(head, ocr.map((r) => formatRow(r.format, r.results, r.peakRss))));
  const crashed = runs.filter((r) => r.crashed);
  if (crashed.length) out.push("## Benchmark children that crashed", ...crashed.map((r) => `- ${r.format}: ${r.crashed}`));
  const failures = runs.flatMap((run) => run.results).filter((r) => r.error || r.missing.length || r.excludedFound.length);
  const lines: string[] = [];
  for (const r of failures) {
    const tag = isOcrOnly(r.file, expectations[r.file]) ? " (OCR-only)" : "";
    if (r.error) lines.push(`- ${r.file}${tag}: conversion failed: ${r.error}`);
    for (const s of r.missing) lines.push(`- ${r.file}${tag}: missing ${JSON.stringify(s)}`);
    for (const s of r.excludedFound) lines.push(`- ${r.file}${tag}: contains excluded ${JSON.stringify(s)}`);
  }
  out.push("## Failures", "A failed conversion finds none of its file's strings; files meant to be refused (a garbage signature, a scan while OCR is absent) are listed too.", lines.join("\n") || "None.");
  const slowest = runs.flatMap((run) => run.results).sort((a, b) => b.ms - a.ms).slice(0, 8);
  out.push("## Slowest files", table(["file", "MB", "seconds"], slowest.map((r) => [r.file, mb(r.bytes), (r.ms / 1000).toFixed(2)])));
  return `${out.join("\n\n")}\n`;
}

async function main(): Promise<void> {
  if (!existsSync(CORPUS)) {
    console.log(`No shared corpus at ${CORPUS}: nothing to convert. The conversion benchmark needs ../shared beside the checkout.`);
    return;
  }
  const expectations: Record<string, Expectation> = JSON.parse(readFileSync(join(CORPUS, "expectations.json"), "utf8"));
  const files = FOLDERS.filter((f) => existsSync(join(CORPUS, f)))
    .flatMap((f) => walk(join(CORPUS, f)))
    .map((f) => relative(CORPUS, f))
    .sort();
  const at = process.argv.indexOf("--child");
  if (at >= 0) return child(process.argv[at + 1]!, files, expectations);

  const began = performance.now();
  const { SUPPORTED_EXTENSIONS } = await import("../../src/convert/registry.ts");
  const formats = [...new Set(files.map(formatOf))].sort();
  const runs: FormatRun[] = [];
  const missingConverter = new Map<string, string[]>();
  for (const format of formats) {
    const ofFormat = files.filter((f) => formatOf(f) === format);
    if (!SUPPORTED_EXTENSIONS.has(format)) {
      missingConverter.set(format, ofFormat);
      continue;
    }
    const megabytes = mb(ofFormat.reduce((s, f) => s + statSync(join(CORPUS, f)).size, 0));
    process.stderr.write(`[convert] ${format}: ${ofFormat.length} files, ${megabytes} MB\n`);
    const run = await timedRun([process.execPath, import.meta.path, "--child", format], {});
    try {
      const report = JSON.parse(run.stdout) as ChildReport;
      runs.push({ format, results: report.results, peakRss: Math.max(report.peakRss, Number.isFinite(run.maxRssBytes) ? run.maxRssBytes : 0) });
    } catch {
      const why = `exit ${run.exitCode}: ${run.stderr.trim().split("\n").slice(-3).join(" / ")}`;
      runs.push({ format, results: [], peakRss: run.maxRssBytes, crashed: why });
    }
  }
  const report = render(runs, missingConverter, expectations, (performance.now() - began) / 60000);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, "convert.md"), report);
  process.stdout.write(report);
  process.stderr.write(`[convert] report also in ${join(RESULTS, "convert.md")}\n`);
}

await main();
