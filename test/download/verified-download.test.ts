/**
 * The shared pinned downloader's own guarantees (the model, OCR data and
 * add-on tests cover resume, locking and their callers' errors): a pinned
 * size is a ceiling, and a stalled or refused transfer says why.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { downloadVerified } from "../../src/download/verified-download.ts";
import { tempDir } from "../helpers.ts";

const payload = new TextEncoder().encode("the pinned file's bytes");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
let server: ReturnType<typeof Bun.serve>;
const served: string[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const name = new URL(req.url).pathname.slice(1);
      served.push(name);
      // "endless": a server that keeps sending, as a wrong URL behind a misconfigured mirror might.
      if (name === "endless") {
        let sent = 0;
        const stream = new ReadableStream({
          pull(controller) {
            if (sent < 64) controller.enqueue(new Uint8Array(16 * 1024).fill(sent++));
            else controller.close();
          },
        });
        return new Response(stream);
      }
      return name === "file" ? new Response(payload) : new Response("gone", { status: 410 });
    },
  });
});
afterAll(() => server.stop(true));
const url = (name: string) => `http://127.0.0.1:${server.port}/${name}`;

describe("the pinned downloader", () => {
  test("fetches, checks and renames into place, logging progress; no part or lock file is left", async () => {
    const dir = tempDir();
    const lines: string[] = [];
    await downloadVerified({ url: url("file"), target: join(dir, "f.bin"), sha256: sha(payload), size: payload.length, name: "f.bin" }, (l) => lines.push(l));
    expect(readFileSync(join(dir, "f.bin"))).toEqual(Buffer.from(payload));
    expect(readdirSync(dir)).toEqual(["f.bin"]);
    expect(lines.at(-1)).toBe(`downloading f.bin: 100% of ${(payload.length / 1e6).toFixed(1)} MB`);
  });

  test("a server that sends more than the pinned size is cut off at the size and nothing of it is kept", async () => {
    const dir = tempDir();
    const target = join(dir, "f.bin");
    const error = await downloadVerified({ url: url("endless"), target, sha256: sha(payload), size: 20_000, name: "f.bin" }).then(() => null, (e: Error) => e);
    expect(error?.message).toBe("the server sent more than the pinned 20000 bytes");
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.part`) ? readFileSync(`${target}.part`).length : 0).toBe(0);
  });

  test("an HTTP error is named", async () => {
    const error = await downloadVerified({ url: url("missing"), target: join(tempDir(), "f.bin"), sha256: sha(payload), name: "f.bin" }).then(() => null, (e: Error) => e);
    expect(error?.message).toBe("HTTP 410");
  });
});
