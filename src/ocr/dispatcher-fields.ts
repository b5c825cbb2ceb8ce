/**
 * What the OCR worker (tesseract-worker.ts) uses of tesseract.js's worker
 * script, an internal module rather than its API: kept apart from the
 * worker so a test can read it without starting one.
 */
import type { LibraryShape } from "../library-shape.ts";

export const DISPATCHER_FIELDS: LibraryShape = {
  library: "tesseract.js",
  checkedWith: "7.0.0",
  object: "its worker-script dispatcher (tesseract.js/src/worker-script/index.js)",
  usedIn: "src/ocr/tesseract-worker.ts",
  fields: { setAdapter: ["function"], dispatchHandlers: ["function"] },
};
