/**
 * The passage prefix is counted into the chunk budget, so a unit plus its
 * prefix fits the model's positions even at the largest budget the model
 * allows. Code fences are left out: by the reference's rule a fence stays
 * whole up to four budgets, past the positions, and that is unchanged.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { runSync } from "../../src/sync/run-sync.ts";
import { FIXTURES, TINY_MODEL, testApp } from "../helpers.ts";
import { tinyCopy } from "./model-copies.ts";

const POSITIONS = 128; // the tiny model's trained length

/** Prose, tables, headed documents, transcripts and slides in English and Russian, without code fences. */
function copyDocuments(root: string): void {
  for (const name of ["inventory.md", "lighthouses.md", "quarterly-review-slides.md", "standup-transcript.md", "warehouse-handbook.md"]) {
    cpSync(join(FIXTURES, "chunk", name), join(root, name));
  }
  const xquad = join(FIXTURES, "xquad-en", "docs");
  for (const name of readdirSync(xquad)) cpSync(join(xquad, name), join(root, name));
}

/** Every stored unit's tokens as the prefixed model's encoder sees it: prefix and special tokens included. */
async function encodedLengths(env: Record<string, string>, prefixedModel: string): Promise<number[]> {
  const { app, root } = await testApp(env);
  copyDocuments(root);
  const report = await runSync(app);
  expect(report.counts.failed).toBe(0);
  const embedder = await (await testApp({ MODEL_NAME: prefixedModel })).app.embedder();
  const lengths: number[] = [];
  for (const source of await app.store.listSources()) {
    for (const chunk of await app.store.sourceChunks(source.source)) lengths.push(embedder.countTokens(chunk.text, "passage"));
  }
  return lengths;
}

describe("the chunk budget holds with the passage prefix", () => {
  const prefixed = tinyCopy("tiny-prefixed", { queryPrefix: "query: ", passagePrefix: "passage: " });

  test("at the largest budget the model allows, no unit plus its prefix exceeds the model's positions", async () => {
    const lengths = await encodedLengths({ MODEL_NAME: prefixed, CHUNK_TOKEN_BUDGET: String(POSITIONS) }, prefixed);
    expect(lengths.length).toBeGreaterThan(20);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(POSITIONS);
  });

  test("the same documents cut without counting the prefix would overflow the positions once it is added", async () => {
    const lengths = await encodedLengths({ MODEL_NAME: TINY_MODEL, CHUNK_TOKEN_BUDGET: String(POSITIONS) }, prefixed);
    expect(lengths.filter((n) => n > POSITIONS).length).toBeGreaterThan(0);
  });

  test("at the default budget (110 for a 128-token model) every unit with its prefix is within 110", async () => {
    const lengths = await encodedLengths({ MODEL_NAME: prefixed }, prefixed);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(110);
  });
});
