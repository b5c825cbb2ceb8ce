import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { joinDocument } from "../../src/chunk/join-parent.ts";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { countWithLongRuns, LONG_RUN_CHARS, LONG_RUN_HEAD, modelText } from "../../src/embed/long-runs.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { TINY_MODEL } from "../helpers.ts";

/** Base64 of pseudo-random bytes: what an inlined image or attachment looks like. */
function base64Blob(bytes: number, seed = 7): string {
  const data = new Uint8Array(bytes);
  let a = seed;
  for (let i = 0; i < bytes; i++) data[i] = (a = (a * 1664525 + 1013904223) >>> 0) >>> 24;
  return Buffer.from(data).toString("base64");
}

const embedder = await OnnxEmbedder.load(await resolveModelFolder(TINY_MODEL, { cacheDir: "/none", endpoint: "http://127.0.0.1:9" }));
const count = (text: string) => embedder.countTokens(text);

describe("what the model reads of a long run without spaces", () => {
  test("text without such a run is read as it is: prose, URLs, identifiers, Chinese without spaces", () => {
    for (const text of ["A plain sentence.", `see https://example.org/${"a/".repeat(100)}`, "标点符号".repeat(200), "x".repeat(LONG_RUN_CHARS - 1)]) {
      expect(modelText(text)).toBe(text);
    }
  });

  test("a run is cut to its head and a mark, in place, and cutting again changes nothing", () => {
    const blob = base64Blob(300_000);
    const text = `An image:\n\ndata:image/png;base64,${blob}\n\nand the caption after it.`;
    const read = modelText(text);
    expect(read).toBe(`An image:\n\n${`data:image/png;base64,${blob}`.slice(0, LONG_RUN_HEAD)} …\n\nand the caption after it.`);
    expect(modelText(read)).toBe(read);
  });

  test("the encoder sees the same input for the text and for what the model reads of it", async () => {
    const text = `Notes before ${base64Blob(50_000)} notes after`;
    const [whole, read] = await embedder.embed([text, modelText(text)]);
    expect(count(text)).toBe(count(modelText(text)));
    expect([...whole!]).toEqual([...read!]);
  });

  test("the chunker's measure adds a run's length to what the model reads, so a chunk holds a bounded stretch of it", () => {
    const measure = countWithLongRuns(count);
    const run = "A".repeat(16 * 50);
    expect(measure(`word ${run}`)).toBe(count(`word ${run}`) + 50);
    expect(measure("no run here")).toBe(count("no run here"));
  });
});

describe("a document holding a 1 MB base64 line", () => {
  const blob = base64Blob(786_432);
  const markdown = `# Attachment\n\nThe scanned contract follows as base64.\n\n${blob}\n\nSigned by both parties.\n`;
  const { chunks } = chunkDocument(markdown, { title: "Attachment", seedTitle: true, budget: 110, count });

  test("is cut into chunks of about a thousand characters, not one per hundred", () => {
    // 1,048,576 characters; tokenized whole, the test tokenizer gave 9,509 chunks (at budget 110: 16 characters a token
    // for the 60-odd tokens left beside the run's head and the title).
    expect(chunks.length).toBeGreaterThan(500);
    expect(chunks.length).toBeLessThan(1_500);
  });

  test("reads back exactly and keeps the words around it", () => {
    const rows = chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines }));
    expect(joinDocument(rows)).toBe(markdown);
    expect(chunks.some((c) => c.text.includes("scanned contract"))).toBe(true);
    expect(chunks.at(-1)!.text).toContain("Signed by both parties.");
  });

  test("every chunk fits the model: what it reads is within the budget", () => {
    for (const chunk of chunks) expect(count(chunk.text)).toBeLessThanOrEqual(110);
  }, 30_000); // about a thousand counts by the test tokenizer, 0.2-4 s as the machine's load goes
});
