/**
 * Acceptance: the compiled binary over all 240 xquad-en documents of the
 * shared corpus and the tiny model. Every document is ingested, a second sync
 * re-embeds nothing, status counts them, and every document reads back with
 * every sentence (up to whitespace). test/e2e/cli-xquad.test.ts runs the same
 * binary over the 20 documents committed under test/fixtures/xquad-en.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CORPUS } from "../bench/lib/datasets.ts";
import { BINARY, TINY_MODEL, runCli, tempDir } from "../../test/helpers.ts";

const docs = join(CORPUS, "xquad-en/docs");
const files = readdirSync(docs).filter((f) => f.endsWith(".md"));
let env: Record<string, string>;
const json = (args: string[]) => {
  const r = runCli([...args, "--json"], { exe: [BINARY], cwd: docs, env });
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
};
const flat = (text: string) => text.replace(/\s+/g, " ");

beforeAll(() => {
  // The shared corpus is read-only; the index lives in a temp folder.
  env = { BASE_DIR: docs, MODEL_NAME: TINY_MODEL, DB_PATH: join(tempDir("minirag-accept-db-"), "lancedb") };
});

describe("the binary over every xquad-en document", () => {
  test("the shared set has its 240 paragraphs", () => {
    expect(files).toHaveLength(240);
  });

  test("ingests every document", () => {
    const r = json(["ingest", "."]);
    expect(r.ingested).toBe(files.length);
    expect(r.failed).toBe(0);
  }, 600_000);

  test("sync on the unchanged folder re-embeds nothing", () => {
    expect(json(["sync"]).counts).toMatchObject({ scanned: files.length, ingested: 0, skipped: files.length, deleted: 0, failed: 0 });
  }, 120_000);

  test("status counts every document", () => {
    expect(json(["status"]).sourceCount).toBe(files.length);
  });

  test("read returns every sentence of every document", () => {
    for (const file of files) {
      const read = flat(json(["read", file]).text);
      for (const sentence of readFileSync(join(docs, file), "utf8").split(/(?<=\.)\s+/).filter((s) => s.trim())) expect({ file, found: read.includes(flat(sentence.trim())) }).toEqual({ file, found: true });
    }
  }, 600_000);
});
