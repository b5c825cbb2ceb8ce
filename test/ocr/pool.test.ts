/** The OCR workers: none until a page needs them, one per core at most, none after the job. */
import { afterAll, describe, expect } from "bun:test";
import { availableParallelism } from "node:os";
import { ocrWorkerCount, recognizePages, releaseOcrPool } from "../../src/ocr/pool.ts";
import { failure } from "../helpers.ts";
import { ocrSettingsForTest, ocrSettingsWithoutData, ocrTest } from "./language-data.ts";

afterAll(releaseOcrPool);

/** A white page: tesseract reads nothing on it, quickly. */
const white = () => {
  const head = new TextEncoder().encode("P5\n32 32\n255\n");
  const out = new Uint8Array(head.length + 32 * 32).fill(255);
  out.set(head);
  return { bytes: out };
};

describe("the OCR worker pool", () => {
  ocrTest(
    "workers start with the first page, number at most the cores and the pages, and are gone after release",
    async () => {
      releaseOcrPool();
      expect(ocrWorkerCount()).toBe(0);
      const done: number[] = [];
      const { texts, complaints } = await recognizePages(ocrSettingsForTest(), 3, async (i) => (i === 1 ? null : white()), (i) => done.push(i));
      expect(texts.map((t) => t?.trim() ?? null)).toEqual(["", null, ""]);
      expect(complaints).toEqual([]);
      expect(done.sort()).toEqual([0, 1, 2]);
      expect(ocrWorkerCount()).toBe(Math.min(3, availableParallelism()));
      releaseOcrPool();
      expect(ocrWorkerCount()).toBe(0);
    },
    async () => {
      await failure(recognizePages(ocrSettingsWithoutData(), 1, async () => white()));
      expect(ocrWorkerCount()).toBe(0);
    },
  );
});
