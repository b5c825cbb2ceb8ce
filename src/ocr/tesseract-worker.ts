/**
 * One tesseract worker thread: tesseract.js's own message dispatcher over the
 * WASM core, with an adapter that never touches the network or the file
 * system (language data arrives in the messages, read by language-data.ts).
 * A separate entry point of the compiled binary (scripts/build.ts lists it):
 * tesseract.js's default worker path is the build machine's node_modules.
 */
import { gunzipSync } from "node:zlib";
// @ts-expect-error tesseract.js ships no types for its worker internals.
import dispatcher from "tesseract.js/src/worker-script/index.js";

declare const self: Worker;

/** The core with legacy code (orientation detection needs it) and the WASM inlined, so nothing is read from the build machine's paths. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const getCore = async () => require("tesseract.js-core/tesseract-core-simd.wasm.js");

const refuse = (what: string) => () => Promise.reject(new Error(`OCR ${what} is not used: language data is passed in`));

dispatcher.setAdapter({
  getCore,
  gunzip: gunzipSync,
  fetch: refuse("fetch"),
  readCache: refuse("file reading"),
  writeCache: refuse("file writing"),
  deleteCache: () => Promise.resolve(),
  checkCache: () => Promise.resolve(false),
});

self.onmessage = (event: MessageEvent) => dispatcher.dispatchHandlers(event.data, (reply: unknown) => self.postMessage(reply));
