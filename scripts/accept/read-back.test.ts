/**
 * Acceptance: every document of the shared corpus reads back exactly.
 *
 * 1. Every file of ../shared/corpus a converter takes (about 5,800: the
 *    retrieval sets, the office documents, the format fixtures) is converted
 *    as ingest converts it and chunked with multilingual-e5-small's own
 *    tokenizer at its default budget; its units' own texts must be the
 *    converted document, and no word may be split between two units.
 * 2. Every file outside the retrieval sets (the office documents and the
 *    format fixtures, every format) goes through the compiled binary: a sync
 *    in keyword-only mode (read-back does not depend on the vectors, and the
 *    e5 sync of these 170 files took most of an hour on a busy machine), then
 *    read_file over MCP must return the converted document.
 *
 * Both print how many documents read back exactly, against the target of all.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, resolve } from "node:path";
import type { App } from "../../src/app.ts";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { joinDocument } from "../../src/chunk/join-parent.ts";
import { chunkBudget } from "../../src/config/chunk-budget.ts";
import { releaseConverter } from "../../src/convert/isolated-convert.ts";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import type { Embedder } from "../../src/embed/embedder.ts";
import { documentText } from "../../src/ingest/index-markdown.ts";
import { convertForIngest } from "../../src/ingest/prepare-file.ts";
import { normalizeText } from "../../src/text/normalize.ts";
import { chooseFileTitle } from "../../src/title/choose-title.ts";
import { BINARY, runCli, tempDir, testApp } from "../../test/helpers.ts";
import { CORPUS } from "../bench/lib/datasets.ts";
import { openSession } from "../bench/lib/mcp-driver.ts";

const MODEL = resolve(import.meta.dir, "../../../shared/models/multilingual-e5-small-int8");

function corpusFiles(dir = CORPUS): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return corpusFiles(path);
      return SUPPORTED_EXTENSIONS.has(extname(name).toLowerCase()) ? [path] : [];
    });
}

const words = (text: string) => normalizeText(text).match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];

/** The converted document, or the converter's refusal (a damaged or encrypted file, a scan without text). */
async function converted(app: App, path: string): Promise<{ text: string } | { refused: string }> {
  try {
    return { text: documentText((await convertForIngest(app, path, new Uint8Array(readFileSync(path)))).markdown) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

const files = corpusFiles();
const expected = new Map<string, { text: string } | { refused: string }>();
let app: App;
let embedder: Embedder;

beforeAll(async () => {
  ({ app } = await testApp({ MODEL_NAME: MODEL }, [CORPUS]));
  embedder = await app.embedder();
  for (const path of files) expected.set(path, await converted(app, path));
  releaseConverter();
}, 1_800_000);

describe("the shared corpus reads back exactly", () => {
  test("chunked with e5's tokenizer, every converted document is its units' own texts, and no word is split", () => {
    const budget = chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength });
    const count = (t: string) => embedder.countTokens(t, "passage");
    const inexact: string[] = [];
    const split: string[] = [];
    let converted = 0;
    for (const path of files) {
      const doc = expected.get(path)!;
      if (!("text" in doc)) continue;
      converted++;
      const { chunks } = chunkDocument(doc.text, { title: chooseFileTitle(path, doc.text), seedTitle: true, budget, count });
      const own = chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines }));
      if (joinDocument(own) !== doc.text) inexact.push(relative(CORPUS, path));
      const found = new Set(chunks.flatMap((c) => words(c.text.split("\n").slice(c.contextLines).join("\n"))));
      if (words(doc.text).some((w) => !found.has(w) && count(w) <= budget / 2)) split.push(relative(CORPUS, path));
    }
    const refused = files.filter((f) => "refused" in expected.get(f)!).map((f) => `${relative(CORPUS, f)} (${(expected.get(f) as { refused: string }).refused})`);
    console.log(`read back exactly (chunked with e5's tokenizer, budget ${budget}): ${converted - inexact.length} of ${converted} converted documents; ${refused.length} refused by their converter: ${refused.join("; ")}`);
    expect(inexact).toEqual([]);
    expect(split).toEqual([]);
    expect(converted).toBeGreaterThan(5000);
  }, 1_800_000);

  test("through the compiled binary: every office document and format fixture, every format, read back as converted", async () => {
    const root = join(tempDir("minirag-accept-readback-"), "corpus");
    const copied = ["office", "fixtures"];
    for (const name of copied) cpSync(join(CORPUS, name), join(root, name), { recursive: true });
    const env = { BASE_DIR: root, MODEL_NAME: join(root, "no-model-here"), DB_PATH: join(tempDir("minirag-accept-readback-db-"), "lancedb") };
    // A sync exits 1 when any file failed; the refused ones do.
    runCli(["sync"], { exe: [BINARY], cwd: root, env });
    // The copied folders' documents: the corpus's own SOURCES.md, beside them, is not copied.
    const checked = files.filter((f) => copied.includes(relative(CORPUS, f).split("/")[0]!) && "text" in expected.get(f)!);
    const inexact: string[] = [];
    const session = await openSession({ command: BINARY, args: [], env });
    try {
      for (const path of checked) {
        const read = await session.client.callTool({ name: "read_file", arguments: { filePath: join(root, relative(CORPUS, path)) } });
        const text = read.isError ? null : (read.structuredContent as { text: string }).text;
        if (text !== (expected.get(path) as { text: string }).text) inexact.push(`${relative(CORPUS, path)}${read.isError ? `: ${JSON.stringify(read.content)}` : ""}`);
      }
    } finally {
      await session.close();
    }
    const formats = new Set(checked.map((f) => extname(f).toLowerCase()));
    console.log(`read back exactly through the binary: ${checked.length - inexact.length} of ${checked.length} documents (${[...formats].sort().join(" ")})`);
    expect(inexact).toEqual([]);
    expect(formats.size).toBeGreaterThanOrEqual(12);
  }, 1_800_000);
});
