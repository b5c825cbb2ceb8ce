/**
 * A response body under MAX_FILE_SIZE, counted while it streams: a declared
 * length over the limit stops before the first byte, an endless or lying body
 * stops at the limit. gzip, deflate and br are decoded, and the limit counts
 * the decoded bytes, so a compression bomb stops at the limit too.
 */
import type { IncomingMessage } from "node:http";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { AppError } from "../errors.ts";
import { fetchFailed } from "./http-hop.ts";

export function bodyTooLarge(url: URL, limit: number, seen: string): AppError {
  return new AppError(
    "FILE_TOO_LARGE",
    `${url.href} exceeds MAX_FILE_SIZE (${limit}): ${seen}`,
    "Raise the limit, e.g. export MAX_FILE_SIZE=209715200 (200 MB), if the page is meant to be that large.",
  );
}

function decoded(response: IncomingMessage, url: URL): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip" ? createGunzip()
    : encoding === "deflate" ? createInflate()
    : encoding === "br" ? createBrotliDecompress()
    : encoding === "identity" || encoding === "" ? undefined
    : null;
  if (decoder === null) throw fetchFailed(url, `the server sent an unknown content-encoding (${encoding})`);
  if (!decoder) return response;
  // pipeline carries an error on either side to the other, so a broken stream ends the loop below.
  return pipeline(response, decoder, () => {});
}

/** Reads the whole body, decoded, or throws FILE_TOO_LARGE as soon as it passes `limit` bytes. */
export async function readBody(response: IncomingMessage, url: URL, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers["content-length"]);
  const identity = !response.headers["content-encoding"];
  if (identity && Number.isFinite(declared) && declared > limit) {
    response.destroy();
    throw bodyTooLarge(url, limit, `the server declares ${declared} bytes`);
  }
  const stream = decoded(response, url);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > limit) throw bodyTooLarge(url, limit, `more than ${limit} bytes arrived and the rest was not read`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    response.destroy();
    stream.destroy();
    if (error instanceof AppError) throw error;
    throw fetchFailed(url, `the body could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
