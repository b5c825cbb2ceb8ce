/**
 * Chunking in slices (chunk-document.ts, slices.ts): the same chunks as one
 * pass, with the event loop turning between sections, so a server answers
 * while a large document is chunked for a sync.
 */
import { describe, expect, test } from "bun:test";
import { chunkDocument, chunkDocumentInSlices } from "../../src/chunk/chunk-document.ts";
import { slices } from "../../src/slices.ts";
import { turnCounter } from "../helpers.ts";
import { readBackFixtures } from "./read-back.ts";
import { tinyCount } from "./tiny-counter.ts";

describe("chunking in slices", () => {
  for (const fixture of readBackFixtures()) {
    test(`${fixture.name}: the chunks of one pass, and a turn of the event loop after each section`, async () => {
      const options = { title: fixture.title, seedTitle: true, budget: 60, count: tinyCount };
      const whole = chunkDocument(fixture.markdown, options);
      const counter = turnCounter();
      const sliced = await chunkDocumentInSlices(fixture.markdown, options, slices(0));
      const turns = counter.stop();
      expect(sliced).toEqual(whole);
      const sections = new Set(whole.chunks.map((c) => c.parentIndex)).size;
      expect(turns).toBeGreaterThanOrEqual(sections);
    });
  }
});
