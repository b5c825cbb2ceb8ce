import { describe, expect, test } from "bun:test";
import { count, docBlend, docOnly, second, today, vectorOnlyBlend } from "../../scripts/bench/lib/document-rules.ts";
import type { QuestionLists } from "../../scripts/bench/lib/evidence-lists.ts";

/**
 * Three documents with one chunk each, and a fourth no chunk side found. At w = 0.6 today's scores are
 * doc 1: 0.4 * 0.901 + 0.6 * 1 = 0.960, doc 0: 0.4 * 1 + 0.6 * 0.01 = 0.406, doc 2: 0.4 * 0.01 = 0.004.
 */
function lists(coverage = 1): QuestionLists {
  return {
    id: "q",
    vector: [
      { doc: 0, chunk: 0, value: 0.3 },
      { doc: 1, chunk: 0, value: 0.32 },
      { doc: 2, chunk: 0, value: 0.5 },
    ],
    keyword: [
      { doc: 1, chunk: 0, value: 5 },
      { doc: 0, chunk: 0, value: 4.9 },
    ],
    coverage,
    opening: [0.9, 0.5, 0.4, 0.85],
    meanChunk: [0.5, 0.5, 0.5, 0.5],
  };
}

describe("document-evidence rules", () => {
  test("today ranks documents by their best fused chunk, as query_documents does", () => {
    expect(today(lists())).toEqual([1, 0, 2]);
  });

  test("a document list at weight 0 changes no order among documents with chunks", () => {
    expect(docBlend(lists(), "opening", 0, { withChunk: true })).toEqual([1, 0, 2]);
  });

  test("a document whose opening is closest rises above one ahead only on its chunk, given weight enough", () => {
    // doc 0: 0.406 + 2 * 0.4 * 1 = 1.206; doc 1: 0.960 + 0.8 * (0.01 + 0.99 * 0.1 / 0.5) = 1.126.
    expect(docBlend(lists(), "opening", 2, { withChunk: true })).toEqual([0, 1, 2]);
  });

  test("a document no chunk side found enters only without withChunk", () => {
    expect(docBlend(lists(), "opening", 2)).toContain(3);
    expect(docBlend(lists(), "opening", 2, { withChunk: true })).not.toContain(3);
  });

  test("under half keyword coverage the document list adds by rank with its own weight", () => {
    // Rank fusion: doc 0 leads the vector side, doc 1 the keyword side at coverage 0.2; the opening list's first place decides.
    expect(docBlend(lists(0.2), "opening", 0, { rankG: 3, withChunk: true })[0]).toBe(0);
    expect(docBlend(lists(0.2), "opening", 0, { rankG: 0, withChunk: true })).toEqual(today(lists(0.2)));
  });

  test("candidatesOnly lists the fused candidates' documents alone, rescaled among themselves", () => {
    // Doc 3 has no chunk, so it neither enters nor sets the top of the rescaling: doc 0 (0.9) is 1, doc 2 (0.4) the floor.
    const ranked = docBlend(lists(), "opening", 2, { candidatesOnly: true });
    expect(ranked).not.toContain(3);
    // doc 0: 0.406 + 0.8 * 1 = 1.206; doc 1: 0.960 + 0.8 * (0.01 + 0.99 * 0.1 / 0.5) = 1.126; doc 2: 0.004 + 0.8 * 0.01.
    expect(ranked).toEqual([0, 1, 2]);
  });

  test("capped, the list and the vector side share the vector weight: at g = 1 a full keyword match keeps its lead", () => {
    // Uncapped at g = 2 doc 0 passes doc 1 (above); capped, doc 1's keyword part (0.6) is no longer outweighed.
    expect(docBlend(lists(), "opening", 2, { withChunk: true, capped: true })).toEqual([1, 0, 2]);
  });

  test("partialG replaces g only where the keywords matched some query words but not all", () => {
    expect(docBlend(lists(0.8), "opening", 0, { partialG: 2, withChunk: true })).toEqual(docBlend(lists(0.8), "opening", 2, { withChunk: true }));
    expect(docBlend(lists(), "opening", 0, { partialG: 2, withChunk: true })).toEqual(docBlend(lists(), "opening", 0, { withChunk: true }));
    expect(docBlend(lists(0.8), "opening", 2, { withChunk: true })).not.toEqual(docBlend(lists(0.8), "opening", 0, { withChunk: true }));
  });

  test("the document vector alone ranks by cosine", () => {
    expect(docOnly(lists(), "opening")).toEqual([0, 3, 1, 2]);
  });

  test("chunk-count rules keep today's order on rank fusion's path", () => {
    expect(second(lists(0.2), 0.5)).toEqual(today(lists(0.2)));
    expect(count(lists(0.2), 0.5)).toEqual(today(lists(0.2)));
  });

  test("vector-only: the vector side's documents by their best chunk, then with the opening's part", () => {
    // Chunks alone: 1 / 1.3, 1 / 1.32, 1 / 1.5, so doc 0, 1, 2; doc 3 was not found and never enters.
    expect(vectorOnlyBlend(lists(), "opening", 0, "distance")).toEqual([0, 1, 2]);
    // g = 1, each document's part 1 / (3 - 2 cos): doc 1 (0.758 + 1 / 1.1 = 1.667) passes doc 0 (0.769 + 1 / 2.2 = 1.224).
    expect(vectorOnlyBlend({ ...lists(), opening: [0.4, 0.95, 0.5, 0] }, "opening", 1, "distance")).toEqual([1, 0, 2]);
    // Rescaled: doc 1 (0.901) and doc 2 (0.01) among the chunks; the openings put doc 2 (0.4) at the floor and doc 1 (0.5) at 0.208.
    const rescaled = vectorOnlyBlend({ ...lists(), opening: [0.4, 0.5, 0.9, 0] }, "opening", 2, "rescaled");
    expect(rescaled).toEqual([2, 1, 0]);
    expect(rescaled).not.toContain(3);
  });
});
