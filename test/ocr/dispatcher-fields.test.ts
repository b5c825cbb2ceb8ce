import { expect, test } from "bun:test";
// @ts-expect-error tesseract.js ships no types for its worker internals.
import dispatcher from "tesseract.js/src/worker-script/index.js";
import { shapeProblems } from "../../src/library-shape.ts";
import { DISPATCHER_FIELDS } from "../../src/ocr/dispatcher-fields.ts";

test("the installed tesseract.js worker script has the dispatcher the OCR worker drives, and one without it is named", () => {
  expect(shapeProblems(dispatcher, DISPATCHER_FIELDS)).toEqual([]);
  expect(shapeProblems({ setAdapter() {} }, DISPATCHER_FIELDS)).toEqual(["dispatchHandlers (missing)"]);
});
