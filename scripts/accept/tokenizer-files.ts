/**
 * The default model's tokenizer files (tokenizer.json, tokenizer_config.json),
 * fetched at their pinned revision and checked against their pinned sha256 by
 * the product's own downloader, into `<cache folder>` in the Hugging Face
 * snapshot layout. For the tokenizer acceptance where ../shared is not beside
 * the checkout: GitHub's CI runs this, caches the folder, and points
 * MINIRAG_ACCEPT_TOKENIZER at the folder it prints.
 *
 *   bun scripts/accept/tokenizer-files.ts <cache folder>
 */
import { DEFAULT_MODEL } from "../../src/config/defaults.ts";
import { DEFAULT_HF_ENDPOINT } from "../../src/config/load-config.ts";
import { ensureModelFiles } from "../../src/embed/download.ts";
import { KNOWN_MODELS } from "../../src/embed/known-models.ts";

const cacheDir = process.argv[2];
if (!cacheDir) {
  console.error("usage: bun scripts/accept/tokenizer-files.ts <cache folder>");
  process.exit(2);
}
const model = KNOWN_MODELS[DEFAULT_MODEL]!;
const tokenizerOnly = { ...model, files: model.files.filter((file) => file.path.startsWith("tokenizer")) };
const folder = await ensureModelFiles(tokenizerOnly, cacheDir, { endpoint: process.env.HF_ENDPOINT ?? DEFAULT_HF_ENDPOINT, log: (line) => console.error(line) });
console.log(folder);
