/** Finding a model the offline bundle ships beside the executable, and telling status where the model is. */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_MODEL } from "../../src/config/defaults.ts";
import { bundledModelDir, locateModel } from "../../src/embed/bundled-model.ts";
import { snapshotDir } from "../../src/embed/download.ts";
import { KNOWN_MODELS } from "../../src/embed/known-models.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";

/** The old default: its files sit at the top of its folder. */
const DEFAULT_ID = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2";
const known = KNOWN_MODELS[DEFAULT_ID]!;

/** The pinned files at their pinned sizes (sparse, so 250 MB costs nothing); sizes are what the lookup checks. */
function fakePinnedFiles(dir: string, shortBy = 0): void {
  mkdirSync(dir, { recursive: true });
  for (const file of known.files) {
    writeFileSync(join(dir, file.path), "");
    truncateSync(join(dir, file.path), file.size - shortBy);
  }
}

describe("a model bundled beside the executable", () => {
  test("an id that is not a known model is used as a plain folder under models/<id>/", () => {
    const root = tempDir();
    cpSync(TINY_MODEL, join(root, "minirag-test", "tiny"), { recursive: true });
    expect(bundledModelDir("minirag-test/tiny", undefined, root)).toBe(join(root, "minirag-test", "tiny"));
  });

  test("a known id is used only when every pinned file has its pinned size", () => {
    const root = tempDir();
    fakePinnedFiles(join(root, ...DEFAULT_ID.split("/")));
    expect(bundledModelDir(DEFAULT_ID, known, root)).toBe(join(root, ...DEFAULT_ID.split("/")));
    const broken = tempDir();
    fakePinnedFiles(join(broken, ...DEFAULT_ID.split("/")), 1);
    expect(bundledModelDir(DEFAULT_ID, known, broken)).toBeNull();
  });

  test("nothing is bundled when there is no models/ folder, the id is absent, or MODEL_NAME is a path", () => {
    expect(bundledModelDir(DEFAULT_ID, known, null)).toBeNull();
    expect(bundledModelDir("minirag-test/tiny", undefined, tempDir())).toBeNull();
    expect(bundledModelDir(TINY_MODEL, undefined, tempDir())).toBeNull();
  });
});

describe("where status says the model is", () => {
  test("a path is a folder, a bundled id is bundled", () => {
    expect(locateModel(TINY_MODEL, tempDir(), null)).toEqual({ path: TINY_MODEL, source: "folder" });
    const root = tempDir();
    cpSync(TINY_MODEL, join(root, "minirag-test", "tiny"), { recursive: true });
    expect(locateModel("minirag-test/tiny", tempDir(), root)).toEqual({ path: join(root, "minirag-test", "tiny"), source: "bundled" });
  });

  test("a known id is in the cache once downloaded, else it will be downloaded into the cache", () => {
    const cache = tempDir();
    const snapshot = snapshotDir(cache, known);
    expect(locateModel(DEFAULT_ID, cache, null)).toEqual({ path: snapshot, source: "download" });
    fakePinnedFiles(snapshot);
    expect(locateModel(DEFAULT_ID, cache, null)).toEqual({ path: snapshot, source: "cache" });
  });

  test("an unknown id that is not bundled has no location", () => {
    expect(locateModel("nobody/nothing", tempDir(), tempDir())).toBeNull();
  });
});

describe("the default model in the offline bundle", () => {
  test("its ONNX file sits in a subfolder (onnx/model_quantized.onnx), and the bundle's copy is found when every file has its pinned size", () => {
    const e5 = KNOWN_MODELS[DEFAULT_MODEL]!;
    expect(e5.onnxFile).toBe("onnx/model_quantized.onnx");
    const root = tempDir();
    const dir = join(root, ...DEFAULT_MODEL.split("/"));
    for (const file of e5.files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), "");
      truncateSync(join(dir, file.path), file.size);
    }
    expect(locateModel(DEFAULT_MODEL, tempDir(), root)).toEqual({ path: dir, source: "bundled" });
    truncateSync(join(dir, e5.onnxFile), 1);
    const cache = tempDir();
    expect(locateModel(DEFAULT_MODEL, cache, root)).toEqual({ path: snapshotDir(cache, e5), source: "download" });
  });
});
