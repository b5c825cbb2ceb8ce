/**
 * The conversion worker: converts one file per message, off the main thread,
 * so a file that sends a parser into a loop can be stopped (the worker is
 * terminated) without stopping the sync or the server. A separate entry point
 * of the compiled binary (scripts/build.ts lists it).
 */
import { errorReply } from "../errors.ts";
import { OcrKeeper } from "./ocr-keeper.ts";
import { converterFor } from "./registry.ts";
import type { ConvertReply, ConvertRequest } from "./isolated-convert.ts";

declare const self: Worker;

const ocr = new OcrKeeper();

self.onmessage = async (event: MessageEvent<ConvertRequest | { release: true }>) => {
  if ("release" in event.data) return ocr.release();
  const { id, path, bytes, options } = event.data;
  ocr.begin(path, new Uint8Array(bytes));
  let reply: ConvertReply;
  try {
    const convert = await converterFor(path);
    // Each recognized page restarts the caller's clock: a long scan is work, not a hang.
    const onProgress = () => self.postMessage({ id, progress: true });
    reply = { id, ok: true, converted: await convert(new Uint8Array(bytes), path, { ...options, onProgress }) };
  } catch (error) {
    const fallback = { code: "CONVERSION_FAILED" as const, message: `${path} could not be converted`, hint: "The file may be damaged; open and re-save it, or move it out of the roots." };
    reply = { id, ok: false, ...errorReply(error, fallback) };
  } finally {
    ocr.end();
  }
  self.postMessage(reply);
};
