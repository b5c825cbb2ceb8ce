/**
 * The compiled binary OCRs an image on its own: the tesseract worker script and
 * its WASM core are inside the executable (scripts/build.ts lists the worker as
 * an entry point), so nothing is read from node_modules. So are pdf.js's worker
 * and its JBIG2 and JPEG 2000 decoders (src/convert/pdf-engine.ts): scanned
 * PDFs in those compressions and CCITT fax are read too.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { BINARY, FIXTURES, runCli, tempDir, TINY_MODEL } from "../helpers.ts";
import { emptyTessdata, ocrTest } from "../ocr/language-data.ts";

let exe: string;
let root: string;
let dir: string;

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run bun run build first`);
  dir = tempDir("minirag-smoke-ocr-");
  cpSync(dirname(BINARY), join(dir, "app"), { recursive: true });
  exe = join(dir, "app", "minirag-mcp");
  root = join(dir, "root");
  mkdirSync(join(root, "scans"), { recursive: true });
  cpSync(join(FIXTURES, "ocr/phototest-top.png"), join(root, "scans/memo.png"));
  // Scanned PDFs whose images need pdf.js's JBIG2, CCITT and OpenJPEG (WASM) decoders, embedded in the binary.
  for (const name of ["jbig2-scan.pdf", "ccitt-scan.pdf", "jpx-scan.pdf"]) cpSync(join(FIXTURES, "ocr", name), join(root, "scans", name));
});

// A copy of the binary and lib/ is ~330 MB: removed afterwards so runs do not fill /tmp.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { exe: [exe], cwd: dirname(exe), env: { BASE_DIR: root, MODEL_NAME: TINY_MODEL, ...env } });

describe("the compiled binary reads scans", () => {
  ocrTest(
    "sync recognizes an image, list marks it [ocr:tesseract] and status says ocr is tesseract",
    async () => {
      const sync = run(["sync"]);
      expect(sync.stdout + sync.stderr).toContain("ingested 4");
      expect(sync.stderr).not.toContain("Warning"); // pdf.js's loading chatter about a canvas package stays quiet
      expect(sync.exitCode).toBe(0);
      const list = run(["list"]).stdout;
      for (const name of ["memo.png", "jbig2-scan.pdf", "ccitt-scan.pdf", "jpx-scan.pdf"]) expect(list).toContain(`scans/${name} [ocr:tesseract]`);
      expect(JSON.parse(run(["status", "--json"]).stdout).ocr).toBe("tesseract");
    },
    async () => {
      // An index and a cache of its own, so the scans are read anew (the other test may have indexed them) and no download is remembered.
      const without = { TESSDATA_PREFIX: emptyTessdata(), DB_PATH: join(tempDir("minirag-smoke-ocr-db-"), "lancedb"), CACHE_DIR: tempDir("minirag-smoke-ocr-cache-") };
      const sync = run(["sync"], without);
      expect(sync.stdout + sync.stderr).toContain("OCR language data");
      expect(sync.stdout + sync.stderr).toContain("TESSDATA_PREFIX");
      expect(JSON.parse(run(["status", "--json"], without).stdout)).toMatchObject({ ocr: "unavailable" });
    },
  );
});
