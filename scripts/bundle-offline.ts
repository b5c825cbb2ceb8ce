#!/usr/bin/env bun
/**
 * The air-gapped bundle: a built target plus the embedding model and OCR
 * language data, so the installed binary never needs the network.
 *
 *   bun scripts/bundle-offline.ts --model-dir DIR [--target linux-x64] [--out dist]
 *       [--model-id ID] [--tessdata DIR] [--languages eng,rus,osd]
 *
 * Writes <out>/release/minirag-mcp-<version>-<target>-offline.tar.gz, whose
 * folder is the plain archive's plus models/<model id>/, tessdata/ and the
 * llama.cpp add-on unpacked in lib/llama/ (which the plain archive leaves to
 * a download on first use), and rewrites SHA256SUMS. --model-dir holds the model's files (flat, or a
 * CACHE_DIR in the Hugging Face layout); for a known id every pinned file is
 * checked by size and sha256 and a mismatch is refused. Any other id (the
 * tests' tiny model) needs --allow-unpinned and is copied as it is.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { DEFAULT_MODEL } from "../src/config/defaults.ts";
import { snapshotDir } from "../src/embed/download.ts";
import { KNOWN_MODELS } from "../src/embed/known-models.ts";
import { SYSTEM_TESSDATA } from "../src/ocr/language-data.ts";
import { DIST, linkTree, mib, sha256File, tarGz, writeChecksums } from "./release/archive.ts";
import { addonDir } from "./release/llama-files.ts";
import { pickTargets, releaseName, type Target } from "./release/targets.ts";

const { values } = parseArgs({
  options: {
    "model-dir": { type: "string" },
    "model-id": { type: "string", default: DEFAULT_MODEL },
    "allow-unpinned": { type: "boolean", default: false },
    target: { type: "string" },
    out: { type: "string" },
    tessdata: { type: "string" },
    languages: { type: "string", default: "eng,rus,osd" },
  },
});

function die(message: string): never {
  console.error(`bundle-offline: ${message}`);
  process.exit(1);
}

/** A hard link where the file system allows it (no copy of 250 MB), else a copy. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** Copies the model into <dir>/models/<id>/, checking a known id's pins; returns a line for the report. */
async function addModel(dir: string): Promise<string> {
  const modelDir = values["model-dir"] ? resolve(values["model-dir"]) : die("--model-dir is required (the model cannot be downloaded here)");
  const id = values["model-id"]!;
  const to = join(dir, "models", ...id.split("/"));
  mkdirSync(to, { recursive: true });
  const known = KNOWN_MODELS[id];
  if (!known) {
    if (!values["allow-unpinned"]) die(`${id} is not a known model id, so nothing pins its files; pass --allow-unpinned to bundle it anyway`);
    for (const file of readdirSync(modelDir)) linkOrCopy(join(modelDir, file), join(to, file));
    return `model ${id} (unpinned) from ${modelDir}`;
  }
  // A CACHE_DIR filled by the product or by huggingface_hub, or a plain folder of the files.
  const snapshot = snapshotDir(modelDir, known);
  const from = existsSync(snapshot) ? snapshot : modelDir;
  for (const file of known.files) {
    const source = join(from, file.path);
    if (!existsSync(source)) die(`${source} is missing (${id} at revision ${known.revision} needs ${known.files.map((f) => f.path).join(", ")})`);
    const digest = await sha256File(source);
    if (statSync(source).size !== file.size || digest !== file.sha256) die(`${source} is not the pinned file: sha256 ${digest}, expected ${file.sha256}`);
    mkdirSync(join(to, file.path, ".."), { recursive: true });
    linkOrCopy(source, join(to, file.path));
  }
  return `model ${id} at revision ${known.revision}, ${known.files.length} files checked by sha256`;
}

/** Copies the wanted languages' .traineddata into <dir>/tessdata/, or says why not. */
function addTessdata(dir: string): string {
  const languages = values.languages!.split(",").map((l) => l.trim()).filter(Boolean);
  const from = values.tessdata ? resolve(values.tessdata) : SYSTEM_TESSDATA.find((d) => existsSync(join(d, `${languages[0]}.traineddata`)));
  if (!from) return `tessdata skipped: no ${languages[0]}.traineddata in ${SYSTEM_TESSDATA[0]} (apt-get install tesseract-ocr-eng tesseract-ocr-rus tesseract-ocr-osd)`;
  const missing = languages.filter((l) => !existsSync(join(from, `${l}.traineddata`)));
  if (missing.length) return `tessdata skipped: ${from} lacks ${missing.join(", ")}`;
  mkdirSync(join(dir, "tessdata"), { recursive: true });
  for (const l of languages) copyFileSync(join(from, `${l}.traineddata`), join(dir, "tessdata", `${l}.traineddata`));
  return `tessdata ${languages.join("+")} from ${from}`;
}

/** The llama.cpp add-on the build packed for this target, unpacked into <dir>/lib/llama/, or why not. */
function addLlama(target: Target, dir: string): string {
  const built = join(addonDir(dist, target), "llama");
  if (!existsSync(built)) return `llama.cpp add-on skipped: the build made none for ${target.name}`;
  linkTree(built, join(dir, "lib", "llama"));
  return "llama.cpp add-on in lib/llama/";
}

const dist = values.out ? resolve(values.out) : DIST;
for (const target of pickTargets(values.target)) {
  const built = join(dist, target.name);
  if (!existsSync(built)) die(`${built} is missing: run bun scripts/build.ts --target ${target.name} first`);
  const name = releaseName(pkg.version, target);
  const staging = join(dist, "release", ".offline");
  rmSync(staging, { recursive: true, force: true });
  linkTree(built, join(staging, name));
  const notes = [await addModel(join(staging, name)), addTessdata(join(staging, name)), addLlama(target, join(staging, name))];
  const archive = await tarGz(staging, name, join(dist, "release", `${name}-offline.tar.gz`));
  rmSync(staging, { recursive: true, force: true });
  console.log(`${archive}: ${mib(statSync(archive).size)}`);
  for (const note of notes) console.log(`  ${note}`);
}
console.log(`  ${await writeChecksums(join(dist, "release"))}`);
