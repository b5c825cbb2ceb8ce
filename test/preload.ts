/**
 * Runs before every test file: each run gets its own temp HOME and cache, and
 * no configuration leaks in from the developer's environment.
 */
import { setDefaultTimeout } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const home = mkdtempSync(join(tmpdir(), "minirag-test-home-"));
process.env.HOME = home;
process.env.XDG_CACHE_HOME = join(home, ".cache");
for (const name of [
  "BASE_DIR", "BASE_DIRS", "DB_PATH", "CACHE_DIR", "MODEL_NAME", "MAX_FILE_SIZE", "CHUNK_TOKEN_BUDGET",
  "RAG_HYBRID_WEIGHT", "RAG_GROUPING", "RAG_MAX_DISTANCE", "RAG_MAX_FILES", "RAG_OCR_LANG",
  "RAG_OCR_MIN_CHARS_PER_PAGE", "RAG_CONVERT_TIMEOUT", "RAG_INSTRUCTIONS_APPEND", "ALLOW_PRIVATE_URLS", "HF_ENDPOINT", "RAG_TESSDATA_URL", "RAG_WATCH", "RAG_RESCAN_INTERVAL",
  "TESSDATA_PREFIX",
]) {
  delete process.env[name];
}
// Tests must never reach the network: a model id would try Hugging Face.
process.env.HF_ENDPOINT = "http://127.0.0.1:9";
// ... and missing OCR language data would be fetched from GitHub.
process.env.RAG_TESSDATA_URL = "http://127.0.0.1:9";

// Slow tests (a compiled binary over hundreds of files) also pass their own timeout:
// bunfig's timeout key is not read by bun 1.4, and this call covers only the first file.
setDefaultTimeout(120_000);
