/** Finding OCR language data one language at a time, and downloading what no folder has. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load-config.ts";
import { cacheTessdata, locateLanguages, SYSTEM_TESSDATA, tessdataFolders } from "../../src/ocr/language-data.ts";
import { ocrStatus } from "../../src/ocr/ocr-status.ts";
import { ensureLanguageData, lastDownloadFailure } from "../../src/ocr/tessdata-download.ts";
import { failure, tempDir } from "../helpers.ts";

function folder(codes: string[]): string {
  const dir = tempDir("minirag-tessdata-");
  for (const code of codes) writeFileSync(join(dir, `${code}.traineddata`), `${code} data in ${dir}`);
  return dir;
}

describe("where language data is found", () => {
  test("each language comes from the first folder that has it, osd included, and what none has is missing", () => {
    const cache = folder(["rus"]);
    const bundled = folder(["eng", "rus"]);
    const system = folder(["eng", "osd", "deu"]);
    expect(locateLanguages(["eng", "rus", "ukr"], [join(cache, "absent"), cache, bundled, system])).toEqual({
      found: { eng: join(bundled, "eng.traineddata"), rus: join(cache, "rus.traineddata"), osd: join(system, "osd.traineddata") },
      missing: ["ukr"],
    });
  });

  test("TESSDATA_PREFIX comes first, its tessdata/ subfolder too (tesseract 3's form), then the cache, and no system folder", () => {
    const cacheDir = tempDir("minirag-cache-");
    expect(tessdataFolders({ cacheDir })).toEqual([cacheTessdata(cacheDir), ...SYSTEM_TESSDATA]);
    const prefix = folder(["eng"]);
    mkdirSync(join(prefix, "tessdata"));
    writeFileSync(join(prefix, "tessdata", "osd.traineddata"), "osd data");
    mkdirSync(cacheTessdata(cacheDir), { recursive: true });
    for (const code of ["eng", "rus"]) writeFileSync(join(cacheTessdata(cacheDir), `${code}.traineddata`), `${code} downloaded`);
    const folders = tessdataFolders({ cacheDir, tessdataPrefix: prefix });
    expect(folders).toEqual([prefix, join(prefix, "tessdata"), cacheTessdata(cacheDir)]);
    // The chosen folder's eng wins over a downloaded one; what it lacks comes from the cache.
    expect(locateLanguages(["eng", "rus"], folders)).toEqual({
      found: { eng: join(prefix, "eng.traineddata"), rus: join(cacheTessdata(cacheDir), "rus.traineddata"), osd: join(prefix, "tessdata", "osd.traineddata") },
      missing: [],
    });
  });

  test("a prefix given relative to the current directory is configured as an absolute folder", () => {
    expect(loadConfig({ env: { BASE_DIR: "/docs", TESSDATA_PREFIX: "lang-data" }, cwd: "/opt/ocr" }).tessdataPrefix).toBe("/opt/ocr/lang-data");
    expect(loadConfig({ env: { BASE_DIR: "/docs" } }).tessdataPrefix).toBeUndefined();
  });

  test("an empty file does not count", () => {
    const dir = folder([]);
    writeFileSync(join(dir, "eng.traineddata"), "");
    expect(locateLanguages(["eng"], [dir]).missing).toEqual(["eng", "osd"]);
  });
});

const served: Record<string, Uint8Array> = { "eng.traineddata": new TextEncoder().encode("fake eng model"), "osd.traineddata": new TextEncoder().encode("fake osd model") };
let server: ReturnType<typeof Bun.serve>;
const requested: string[] = [];
beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const name = new URL(req.url).pathname.split("/").pop()!;
      requested.push(name);
      const body = served[name];
      return body ? new Response(body) : new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => server.stop(true));

const pin = (bytes: Uint8Array) => ({ size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
const pins = { eng: pin(served["eng.traineddata"]!), osd: pin(served["osd.traineddata"]!), rus: pin(new TextEncoder().encode("never served")), ukr: null };

describe("downloading missing language data", () => {
  test("what no folder has is fetched into CACHE_DIR/tessdata, checked, and found there afterwards", async () => {
    const cacheDir = tempDir();
    const lines: string[] = [];
    const settings = { languages: ["eng"], cacheDir, tessdataUrl: `http://127.0.0.1:${server.port}/tessdata_fast` };
    const files = await ensureLanguageData(settings, { folders: [cacheTessdata(cacheDir)], pins, log: (l) => lines.push(l) });
    expect(files).toEqual({ eng: join(cacheTessdata(cacheDir), "eng.traineddata"), osd: join(cacheTessdata(cacheDir), "osd.traineddata") });
    expect(readFileSync(files.eng!, "utf8")).toBe("fake eng model");
    expect(lines.some((l) => l.includes("downloading OCR language data eng.traineddata"))).toBe(true);
    const before = requested.length;
    await ensureLanguageData(settings, { folders: [cacheTessdata(cacheDir)], pins });
    expect(requested.length).toBe(before);
  });

  test("a file whose checksum does not match is refused and nothing is kept", async () => {
    const cacheDir = tempDir();
    const settings = { languages: ["rus"], cacheDir, tessdataUrl: `http://127.0.0.1:${server.port}` };
    served["rus.traineddata"] = new TextEncoder().encode("tampered data");
    const error = await failure(ensureLanguageData(settings, { folders: [cacheTessdata(cacheDir)], pins: { ...pins, rus: { size: 13, sha256: "0".repeat(64) } } }));
    delete served["rus.traineddata"];
    expect(error.code).toBe("OCR_LANGUAGE_DATA");
    expect(error.message).toContain("checksum mismatch");
    expect(existsSync(join(cacheTessdata(cacheDir), "rus.traineddata"))).toBe(false);
  });

  test("a failed download is a loud error naming the files and the fixes, and status reads unavailable until one succeeds", async () => {
    const cacheDir = tempDir();
    const settings = { languages: ["rus"], cacheDir, tessdataUrl: "http://127.0.0.1:9" };
    const error = await failure(ensureLanguageData(settings, { folders: [cacheTessdata(cacheDir)], pins }));
    expect(error.message).toContain("OCR language data rus, osd is not installed and could not be downloaded");
    expect(error.hint).toContain("apt-get install tesseract-ocr-rus tesseract-ocr-osd");
    expect(error.hint).toContain(cacheTessdata(cacheDir));
    expect(lastDownloadFailure(cacheDir)).toContain("127.0.0.1:9");
    // status looks at the real folders: the system's may hold rus and osd, so it is asked about a language no system has.
    expect(ocrStatus({ ...settings, languages: ["rus", "tat"] })).toEqual({ ocr: "unavailable", ocrHint: expect.stringContaining("its download failed") });
    mkdirSync(cacheTessdata(cacheDir), { recursive: true });
    for (const code of ["rus", "tat", "osd"]) writeFileSync(join(cacheTessdata(cacheDir), `${code}.traineddata`), "local copy");
    expect(ocrStatus({ ...settings, languages: ["rus", "tat"] })).toEqual({ ocr: "tesseract" });
  });

  test("after a failed download the next is not tried for a minute: each scan of a sync fails at once, saying from when it is tried again", async () => {
    const cacheDir = tempDir();
    const settings = { languages: ["rus"], cacheDir, tessdataUrl: `http://127.0.0.1:${server.port}` };
    const folders = [cacheTessdata(cacheDir)];
    const before = requested.length;
    await failure(ensureLanguageData(settings, { folders, pins }));
    const tried = requested.length - before;
    expect(tried).toBeGreaterThan(0);
    const again = await failure(ensureLanguageData(settings, { folders, pins }));
    expect(requested.length - before).toBe(tried);
    expect(again.code).toBe("OCR_LANGUAGE_DATA");
    expect(again.message).toMatch(/its download failed moments ago \(.+\); it is tried again from \d\d:\d\d:\d\d UTC$/);
    // From another place (a corrected RAG_TESSDATA_URL) it is tried at once.
    await failure(ensureLanguageData({ ...settings, tessdataUrl: `http://127.0.0.1:${server.port}/mirror` }, { folders, pins }));
    expect(requested.length - before).toBe(2 * tried);
    // A minute on (the record dated back), the download is tried again.
    const record = join(cacheTessdata(cacheDir), "download-failed.txt");
    writeFileSync(record, readFileSync(record, "utf8").replace(/^\S+/, new Date(Date.now() - 61_000).toISOString()));
    await failure(ensureLanguageData(settings, { folders, pins }));
    expect(requested.length - before).toBe(3 * tried);
  });

  test("a TESSDATA_PREFIX that does not exist is named as such in the error and in status", async () => {
    const prefix = join(tempDir(), "no-such-tessdata");
    const settings = { languages: ["rus"], cacheDir: tempDir(), tessdataUrl: "http://127.0.0.1:9", tessdataPrefix: prefix };
    const error = await failure(ensureLanguageData(settings, { pins }));
    expect(error.hint).toBe(`TESSDATA_PREFIX names ${prefix}, which does not exist: correct it to the folder that holds rus.traineddata, osd.traineddata, or unset it to use the system's language data.`);
    expect((ocrStatus(settings) as { ocrHint: string }).ocrHint).toContain(`TESSDATA_PREFIX names ${prefix}, which does not exist`);
  });

  test("with TESSDATA_PREFIX set, the error and status name its folder and unsetting it, not packages the search would not see", async () => {
    const cacheDir = tempDir();
    const prefix = folder([]);
    const settings = { languages: ["rus", "tat"], cacheDir, tessdataUrl: "http://127.0.0.1:9", tessdataPrefix: prefix };
    const error = await failure(ensureLanguageData(settings, { pins }));
    expect(error.code).toBe("OCR_LANGUAGE_DATA");
    const status = ocrStatus(settings);
    expect(status.ocr).toBe("unavailable");
    for (const hint of [error.hint!, (status as { ocrHint: string }).ocrHint]) {
      expect(hint).toContain(`TESSDATA_PREFIX's folder ${prefix}`);
      expect(hint).toContain("unset TESSDATA_PREFIX");
      expect(hint).not.toContain("apt-get");
    }
    // A language this build cannot download is to be put into the chosen folder.
    expect(ocrStatus({ ...settings, languages: ["nld"] })).toEqual({ ocr: "unavailable", ocrHint: expect.stringContaining(`into ${prefix}.`) });
  });

  test("a language this build has no checksum for is not downloaded, and status says where to put it", async () => {
    const cacheDir = tempDir();
    const error = await failure(ensureLanguageData({ languages: ["ukr"], cacheDir, tessdataUrl: `http://127.0.0.1:${server.port}` }, { folders: [cacheTessdata(cacheDir)], pins }));
    expect(error.message).toContain("ukr has no pinned checksum");
    expect(ocrStatus({ languages: ["nld"], cacheDir })).toEqual({ ocr: "unavailable", ocrHint: expect.stringContaining("this build does not download it") });
  });
});
