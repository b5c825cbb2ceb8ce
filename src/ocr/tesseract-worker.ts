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
import { checkLibraryShape } from "../library-shape.ts";
import { DISPATCHER_FIELDS } from "./dispatcher-fields.ts";

declare const self: Worker;

// The dispatcher is tesseract.js's internal module, not its API: a version that changed it stops here, naming what changed.
checkLibraryShape(dispatcher, DISPATCHER_FIELDS);

type CoreFactory = (options: Record<string, unknown>) => Promise<unknown>;

/** A line the WASM core printed, sent to the client beside the job's reply (tesseract-client.ts). */
export interface CoreMessage {
  coreMessage: string;
}

/** Sends what the core prints to the client instead of the process's stderr. */
const forward = (line: string) => self.postMessage({ coreMessage: String(line) } satisfies CoreMessage);

/**
 * The core with legacy code (orientation detection needs it) and the WASM inlined, so nothing is read from the build
 * machine's paths. Leptonica and libpng print their complaints about a damaged image ("Error in pixReadStream...")
 * to stderr, where a sync's user saw them as raw lines beside the file's own error: they go to the client instead.
 */
const getCore = async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const core = require("tesseract.js-core/tesseract-core-simd.wasm.js") as CoreFactory;
  return (options: Record<string, unknown>) => core({ ...options, print: forward, printErr: forward });
};

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
