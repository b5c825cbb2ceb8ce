/**
 * .xlsx and .xls -> one `## <sheet name>` section per sheet, each a Markdown
 * table (xlsx-table.ts), read with SheetJS as published under @e965/xlsx
 * (npm's xlsx 0.18.5 has CVE-2023-30533 and CVE-2024-22363 on crafted files).
 * SheetJS loads on first use: it is ~1 MB of code.
 *
 * What SheetJS sees is checked first. A zip container passes assertSafeZip
 * (SheetJS inflates every part whole, so a zip bomb would take all memory).
 * Formulas are not parsed or evaluated (the cached values are read), nor are
 * VBA, calculation chains or external-link targets, and nothing is fetched.
 */
import { extname } from "node:path";
import { DEFAULT_MAX_FILE_SIZE } from "../config/defaults.ts";
import { AppError } from "../errors.ts";
import type { Converted, ConvertOptions } from "./types.ts";
import { sheetGrid, sheetMarkdown, type CellRange, type Reformat, type SheetCell } from "./xlsx-table.ts";
import { assertSafeZip, invalidContainer } from "./zip.ts";
import { trimWorkbook } from "./xlsx-trim.ts";

/**
 * Rows read per sheet. SheetJS holds every cell as an object: measured on
 * 2 cores, a 100,000-row, 6-column sheet (24 MB of sheet XML) takes ~2 s and
 * ~300 MB while parsing, so 200,000 rows bound a sheet to about twice that.
 * Rows past it are left out with a warning that names the sheet.
 */
export const MAX_SHEET_ROWS = 200_000;

/**
 * Inflated bytes the container may hold. Converters are not handed the
 * configured MAX_FILE_SIZE, so the default stands in for it.
 */
const INFLATED_LIMIT = DEFAULT_MAX_FILE_SIZE;

const ZIP = [0x50, 0x4b];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
/** BIFF2-4 files (Excel 2.x-4.x, before OLE) open with a BOF record: 09 00, 09 02, 09 04. */
const BIFF_BOF = /^\x09[\x00\x02\x04]/;

type Sheetjs = typeof import("@e965/xlsx");
let sheetjs: Promise<Sheetjs> | undefined;

/** SheetJS, and for .xls its code-page tables (Excel 95 and older store text in the writer's code page, e.g. Windows-1251). */
async function loadSheetjs(legacy: boolean): Promise<Sheetjs> {
  sheetjs ??= import("@e965/xlsx");
  const lib = await sheetjs;
  if (legacy) lib.set_cptable(await import("@e965/xlsx/dist/cpexcel.full.mjs"));
  return lib;
}

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** Throws unless the bytes are a workbook of a kind SheetJS should be given for this extension. */
function checkContainer(bytes: Uint8Array, path: string, maxBytes: number): void {
  if (bytes.length === 0) throw invalidContainer(path, "it is empty (0 bytes)");
  if (startsWith(bytes, OLE)) return; // .xls, or an encrypted .xlsx: SheetJS tells which
  if (startsWith(bytes, ZIP) || extname(path).toLowerCase() !== ".xls") {
    assertSafeZip(bytes, path, maxBytes);
    return;
  }
  // What else is sold as .xls: old BIFF, and HTML or SpreadsheetML 2003 tables that web apps export.
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 512));
  if (BIFF_BOF.test(head) || /^(\uFEFF|\xEF\xBB\xBF)?\s*</.test(head)) return;
  throw invalidContainer(path, "it is neither an Excel workbook nor an HTML or XML table");
}

/**
 * SheetJS writes diagnostics with console.log on some malformed files; in
 * server mode stdout carries JSON-RPC, so while it parses they go to stderr.
 */
function withConsoleOnStderr<T>(run: () => T): T {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(" ")}\n`);
  Object.assign(console, { log: toStderr, info: toStderr, debug: toStderr });
  try {
    return run();
  } finally {
    Object.assign(console, saved);
  }
}

/**
 * SheetJS's formatter reads "." in a date format as the start of fractional
 * seconds and gives up on "dd.mm.yyyy", the usual date format in Russian and
 * German files, leaving the serial (45421). Escaping each "." that is not
 * followed by a 0 ("ss.000" keeps its decimals) formats it as displayed.
 */
function dottedDates(ssf: Sheetjs["SSF"]): Reformat {
  return (cell) => {
    if (typeof cell.v !== "number" || typeof cell.z !== "string") return undefined;
    const escaped = cell.z.replace(/("[^"]*")|\\.|\.(?!0)/g, (m: string, quoted?: string) => quoted ?? (m === "." ? "\\." : m));
    try {
      return ssf.format(escaped, cell.v);
    } catch {
      return undefined;
    }
  };
}

function readFailure(path: string, error: unknown): AppError {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();
  if (/password|encrypt/i.test(message)) {
    return new AppError(
      "CONVERSION_FAILED",
      `${path} is password-protected`,
      "Open it in Excel or LibreOffice, remove the password (File > Info > Protect Workbook), save, and sync again.",
    );
  }
  return invalidContainer(path, `SheetJS cannot read it (${message.slice(0, 200)})`);
}

export function convertXlsx(bytes: Uint8Array, path: string, options: ConvertOptions = {}): Promise<Converted> {
  return convertWorkbook(bytes, path, MAX_SHEET_ROWS, options.maxBytes);
}

/** convertXlsx with the row limit as a parameter, so a test can reach it without 200,000 rows. */
export async function convertWorkbook(bytes: Uint8Array, path: string, maxRows: number, maxBytes = INFLATED_LIMIT): Promise<Converted> {
  checkContainer(bytes, path, maxBytes);
  const legacy = !startsWith(bytes, ZIP);
  const XLSX = await loadSheetjs(legacy);
  const { bytes: readable, cuts } = legacy ? { bytes, cuts: [] } : trimWorkbook(bytes, path, maxBytes, maxRows);
  let workbook: ReturnType<Sheetjs["read"]>;
  try {
    workbook = withConsoleOnStderr(() =>
      XLSX.read(readable, {
        type: "array",
        dense: true,
        sheetRows: maxRows,
        cellText: true,
        cellFormula: false,
        cellHTML: false,
        cellNF: true, // keeps each cell's number format for dottedDates
        cellStyles: false,
        cellDates: false,
        sheetStubs: false,
        bookVBA: false,
        bookDeps: false,
        bookFiles: false,
        WTF: false,
      }),
    );
  } catch (error) {
    throw readFailure(path, error);
  }
  const sections: string[] = [];
  const warnings: string[] = cuts.map((cut) => `${path}: ${cut}, as more would take SheetJS past its memory bound.`);
  const reformat = dottedDates(XLSX.SSF);
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (!sheet) continue;
    const data = (sheet["!data"] ?? []) as (SheetCell | null)[][];
    sections.push(sheetMarkdown(name, sheetGrid({ data, merges: (sheet["!merges"] ?? []) as CellRange[] }, reformat)));
    if (sheet["!fullref"] && sheet["!fullref"] !== sheet["!ref"]) {
      warnings.push(`${path}: sheet "${name}" has more than ${maxRows} rows; only the first ${maxRows} were read (range ${sheet["!fullref"]}).`);
    }
    // Let the cells of a converted sheet go before the next one is turned into text.
    delete workbook.Sheets[name];
  }
  const title = typeof workbook.Props?.Title === "string" ? workbook.Props.Title.replace(/\s+/g, " ").trim() : "";
  return { markdown: sections.join("\n\n"), metadataTitle: title || undefined, warnings: warnings.length ? warnings : undefined };
}
