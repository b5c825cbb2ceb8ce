/** .md, .markdown and .txt: the text itself, decoded. */
import { basename } from "node:path";
import { decodeText } from "./decode-text.ts";
import type { Converted } from "./types.ts";

export function convertPlainText(bytes: Uint8Array, path: string): Converted {
  const { text, warnings } = decodeText(bytes, basename(path));
  return { markdown: text, warnings };
}
