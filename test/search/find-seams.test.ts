/**
 * find_mentions across chunk boundaries, over a real index (tiny model, a
 * small CHUNK_TOKEN_BUDGET so a paragraph is cut into many units): every two
 * neighbouring words of the document are found as a phrase, with a snippet
 * that shows them, wherever a boundary falls. Before, a phrase that a chunk
 * boundary split was not found.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findMentions } from "../../src/search/find-mentions.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { normalizeText } from "../../src/text/normalize.ts";
import { FIXTURES, testApp } from "../helpers.ts";

describe("a phrase a chunk boundary splits", () => {
  test("every pair of neighbouring words of a paragraph cut into many chunks is found, with its snippet", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "32" });
    const file = join(FIXTURES, "xquad-en/docs/1973_oil_crisis-p01.md");
    cpSync(file, join(root, "oil.md"));
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, failed: 0 });
    const chunks = await app.store.sourceChunks(join(root, "oil.md"), 0, 1000);
    expect(chunks.length).toBeGreaterThan(5);
    const text = normalizeText(readFileSync(file, "utf8"));
    const words = text.match(/[\p{L}\p{N}]+/gu)!;
    const missed: string[] = [];
    for (let i = 0; i + 1 < words.length; i++) {
      const phrase = `"${words[i]} ${words[i + 1]}"`;
      // Only pairs the text holds with a plain space between (not across punctuation).
      if (!text.includes(`${words[i]} ${words[i + 1]}`)) continue;
      const found = await findMentions(app, { terms: [phrase] });
      const snippet = found.documents[0]?.firstMatch?.snippet ?? "";
      if (found.matchedDocuments !== 1 || !normalizeText(snippet).includes(`${words[i]} ${words[i + 1]}`)) missed.push(phrase);
    }
    expect(missed).toEqual([]);
  });
});

describe("a seam with whitespace on both sides", () => {
  test("a split code block's lines (each ends with a line break, the next starts indented) are found across every seam (found by a probe)", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "32" });
    const lines = Array.from({ length: 120 }, (_, i) => `    let v${i} = compute(${i}); // fbword${i}`);
    writeFileSync(join(root, "fence.md"), `# Code\n\n\`\`\`\n${lines.join("\n")}\n\`\`\`\n`);
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, failed: 0 });
    const chunks = await app.store.sourceChunks(join(root, "fence.md"), 0, 1000);
    expect(chunks.filter((c) => /^\s/.test(c.text.split("\n").slice(c.context_lines ?? 0).join("\n"))).length).toBeGreaterThan(5);
    const missed: string[] = [];
    for (let i = 0; i + 1 < lines.length; i++) {
      const found = await findMentions(app, { terms: [`"fbword${i} let"`] });
      if (found.matchedDocuments !== 1) missed.push(`fbword${i} let`);
    }
    expect(missed).toEqual([]);
  });
});
