/**
 * The PDF engine: pdfjs-dist's full build behind unpdf, loaded on first use.
 * unpdf's own bundle is the same pdf.js (6.1.200) with the JBIG2, CCITT fax
 * and JPEG 2000 image decoders cut out, and those are what scanners and
 * OCRmyPDF write; it is handed the full build before it would import its
 * own, which the build leaves out of the binary (scripts/release/app-bundle.ts). Three things make the full build work inside the compiled
 * binary's conversion thread:
 * - pdf.js's worker runs in this thread (globalThis.pdfjsWorker): its default
 *   would import pdf.worker.mjs from the build machine's node_modules, and a
 *   conversion already has a thread of its own (the import below names the
 *   module literally, so Bun bundles it);
 * - the JBIG2 and OpenJPEG decoders are WebAssembly files that pdf.js asks
 *   for by name: they are embedded (imports "with type file") and handed over
 *   by a BinaryDataFactory that reads nothing else (no CMaps or standard font
 *   data: text extraction stays as it is with unpdf's bundle);
 * - Bun's navigator has no `language`, and pdf.js's Node set-up then replaces
 *   the whole navigator with a stub; node:os's availableParallelism reads
 *   navigator.hardwareConcurrency in Bun, so the OCR pool would size itself
 *   to NaN workers. Giving the real navigator a language keeps it.
 */
import { readFileSync } from "node:fs";
// @ts-expect-error wasm files are embedded as files; Bun gives their path.
import jbig2Wasm from "pdfjs-dist/wasm/jbig2.wasm" with { type: "file" };
// @ts-expect-error as above.
import openjpegWasm from "pdfjs-dist/wasm/openjpeg.wasm" with { type: "file" };

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

const WASM: Record<string, string> = { "jbig2.wasm": jbig2Wasm as string, "openjpeg.wasm": openjpegWasm as string };

/** What pdf.js asks its BinaryDataFactory for: only the image decoders are served. */
class EmbeddedWasm {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const path = kind === "wasmUrl" ? WASM[filename] : undefined;
    if (!path) throw new Error(`${kind} ${filename} is not bundled`);
    return new Uint8Array(readFileSync(path));
  }
}

let engine: Promise<PdfJs> | null = null;

/** pdf.js (full build), with its worker in this thread; unpdf's helpers use the same module from then on. */
export function pdfEngine(): Promise<PdfJs> {
  engine ??= (async () => {
    const navigator = globalThis.navigator as { language?: string } | undefined;
    if (navigator && !navigator.language) Object.defineProperty(navigator, "language", { value: "en-US", configurable: true });
    // @ts-expect-error pdfjs-dist ships no types for its worker module.
    const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    const { definePDFJSModule, getResolvedPDFJS } = await import("unpdf");
    // While it loads, pdf.js's Node set-up warns that it cannot find the canvas package it renders with
    // ("rendering may be broken"): nothing here renders, and in the compiled binary the package is never there.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void (/^Warning: Cannot (load "@napi-rs\/canvas"|polyfill)/.test(String(args[0])) || warn(...args));
    try {
      await definePDFJSModule(() => import("pdfjs-dist/legacy/build/pdf.mjs"));
    } finally {
      console.warn = warn;
    }
    return (await getResolvedPDFJS()) as unknown as PdfJs;
  })();
  return engine;
}

/** Options for getDocument that every PDF here opens with. */
export const PDF_OPTIONS = {
  // verbosity 0: pdf.js would otherwise print warnings about fonts and damaged objects to the console.
  verbosity: 0,
  useSystemFonts: false,
  stopAtErrors: false,
  disableFontFace: true,
  wasmUrl: "embedded/",
  BinaryDataFactory: EmbeddedWasm,
} as const;
