/** OCR end to end: sync reads images, counts one it cannot read as failed and carries on; list and status report the engine. */
import { describe, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { listFiles } from "../../src/read/list-files.ts";
import { configStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { FIXTURES, runCli, testApp, writeTree } from "../helpers.ts";
import { emptyTessdata, ocrTest } from "./language-data.ts";

describe("scans in a sync", () => {
  ocrTest(
    "an image is indexed and listed as read by tesseract, a damaged one fails by name, and the rest carries on",
    async () => {
      const { app, root } = await testApp({});
      writeTree(root, { "scans/memo.png": readFileSync(join(FIXTURES, "ocr/phototest-top.png")), "scans/broken.jpg": "not a jpeg", "note.md": "# Note\n\nplain text" });
      const report = await runSync(app);
      expect(report.counts).toMatchObject({ scanned: 3, ingested: 2, failed: 1 });
      expect(report.errors).toEqual([{ source: join(root, "scans/broken.jpg"), error: expect.stringContaining("broken.jpg could not be read as an image") }]);
      const listing = await listFiles(app);
      const memo = listing.files.find((f) => f.source.endsWith("memo.png"))!;
      expect(memo).toMatchObject({ state: "ingested", ocrEngine: "tesseract", title: "memo" });
      expect(listing.files.find((f) => f.source.endsWith("note.md"))!.ocrEngine).toBe("");
      const cli = runCli(["list"], { env: { BASE_DIR: root, DB_PATH: app.config.dbPath, MODEL_NAME: app.config.modelName } });
      expect(cli.stdout).toContain("memo.png [ocr:tesseract]");
      expect(configStatus(app.config)).toMatchObject({ ocr: "tesseract" });
      expect(configStatus(app.config).ocrHint).toBeUndefined();
    },
    async () => {
      const { app, root } = await testApp({ TESSDATA_PREFIX: emptyTessdata() });
      writeTree(root, { "scans/memo.png": readFileSync(join(FIXTURES, "ocr/phototest-top.png")), "note.md": "# Note\n\nplain text" });
      const report = await runSync(app);
      expect(report.counts).toMatchObject({ ingested: 1, failed: 1 });
      expect(report.errors[0]!.error).toContain("OCR language data");
      expect(configStatus(app.config)).toMatchObject({ ocr: "unavailable", ocrHint: expect.stringContaining("download failed") });
    },
  );
});
