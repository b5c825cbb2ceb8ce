import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ModelTokenizer } from "../../src/embed/model-tokenizer.ts";
import { readTokenizerJson } from "../../src/embed/tokenizer-cache.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";
import { unigramJson } from "./unigram-json.ts";

const TEXT = "query: Привет, protein folding 🤖 in the cell";

function setup() {
  const dir = tempDir("minirag-tokcache-");
  const path = join(dir, "tokenizer.json");
  writeFileSync(path, JSON.stringify(unigramJson()));
  const parsed: string[] = [];
  const parse = (p: string) => (parsed.push(p), JSON.parse(readFileSync(p, "utf8")));
  const lines: string[] = [];
  const cache = (fingerprint: string) => ({ folder: join(dir, "cache"), fingerprint, log: (l: string) => lines.push(l) });
  const encode = (json: unknown) => new ModelTokenizer(json as object, { eos_token: "</s>" }, 512).encode(TEXT);
  return { path, parse, parsed, cache, encode, lines, dir };
}

describe("the tokenizer cache", () => {
  test("the first read parses tokenizer.json and writes the cache; the next read uses it and encodes the same", () => {
    const s = setup();
    const first = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    expect(s.parsed).toHaveLength(1);
    expect(readdirSync(join(s.dir, "cache"))).toEqual(["aaaa.tokenizer"]);
    const second = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    expect(s.parsed).toHaveLength(1);
    expect(s.encode(second)).toEqual(s.encode(first));
    expect(s.encode(second)).toEqual(s.encode(JSON.parse(readFileSync(s.path, "utf8"))));
  });

  test("the cached vocabulary reads back as the original [token, score] pairs for any other reader", () => {
    const s = setup();
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    const cached = readTokenizerJson(s.path, s.parse, s.cache("aaaa")) as { model: { vocab: unknown } };
    expect(cached.model.vocab).toEqual((unigramJson().model as { vocab: unknown }).vocab);
  });

  test("after the model changes (another fingerprint) the old cache is not used, and is deleted", () => {
    const s = setup();
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    readTokenizerJson(s.path, s.parse, s.cache("bbbb"));
    expect(s.parsed).toHaveLength(2);
    expect(readdirSync(join(s.dir, "cache"))).toEqual(["bbbb.tokenizer"]);
  });

  test("a cache in an older version's format is rebuilt, and the log says why", () => {
    const s = setup();
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    const file = join(s.dir, "cache", "aaaa.tokenizer");
    const current = readFileSync(file);
    const older = Buffer.from(current);
    older.write("3", 4 + "minirag-tokenizer ".length); // the format number, right after the header's length
    writeFileSync(file, older);
    const json = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    expect(s.parsed).toHaveLength(2);
    expect(s.lines.some((l) => l.includes("another version's format"))).toBe(true);
    expect(readFileSync(file)).toEqual(current);
    expect(s.encode(json)).toEqual(s.encode(JSON.parse(readFileSync(s.path, "utf8"))));
  });

  test("a corrupt or truncated cache file is deleted and tokenizer.json is parsed instead", () => {
    const s = setup();
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    const file = join(s.dir, "cache", "aaaa.tokenizer");
    const good = readFileSync(file);
    for (const bad of [good.subarray(0, good.length - 10), Buffer.from("garbage, not a cache"), Buffer.alloc(0)]) {
      writeFileSync(file, bad);
      const json = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
      expect(s.encode(json)).toEqual(s.encode(JSON.parse(readFileSync(s.path, "utf8"))));
    }
    expect(s.parsed).toHaveLength(4);
    expect(s.lines.filter((l) => l.includes("unreadable"))).toHaveLength(3);
    expect(readFileSync(file)).toEqual(good);
  });

  test("a cache whose vocabulary table is damaged (its size intact) is refused and tokenizer.json parsed instead", () => {
    const s = setup();
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    const file = join(s.dir, "cache", "aaaa.tokenizer");
    const bytes = readFileSync(file);
    // The layout (tokenizer-cache.ts): header length, header, then from a multiple of 8 the scores and the table's slots.
    const scoresAt = Math.ceil((4 + bytes.readUInt32LE(0)) / 8) * 8;
    const slotsAt = scoresAt + ((unigramJson().model as { vocab: unknown[] }).vocab.length * 8);
    bytes.fill(0, slotsAt, slotsAt + 1024 * 4);
    writeFileSync(file, bytes);
    const json = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    expect(s.parsed).toHaveLength(2);
    expect(s.lines.some((l) => l.includes("does not find token"))).toBe(true);
    expect(s.encode(json)).toEqual(s.encode(JSON.parse(readFileSync(s.path, "utf8"))));
  });

  test("a cache whose prefix filter is damaged (its size intact) is refused and tokenizer.json parsed instead", () => {
    const s = setup();
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    const file = join(s.dir, "cache", "aaaa.tokenizer");
    const bytes = readFileSync(file);
    // The header (its second line) gives the sizes; after the scores come the table's slots and hashes, then the filter.
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString().split("\n")[1]!) as { count: number; tableSize: number; prefixWords: number };
    const filterAt = Math.ceil((4 + headerLength) / 8) * 8 + header.count * 8 + header.tableSize * 8;
    bytes.fill(0, filterAt, filterAt + header.prefixWords * 4);
    writeFileSync(file, bytes);
    const json = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    expect(s.parsed).toHaveLength(2);
    expect(s.lines.some((l) => l.includes("prefix filter does not pass"))).toBe(true);
    expect(s.encode(json)).toEqual(s.encode(JSON.parse(readFileSync(s.path, "utf8"))));
  });

  test("a WordPiece tokenizer (a dictionary vocabulary) is parsed every time and never cached", () => {
    const s = setup();
    const path = join(TINY_MODEL, "tokenizer.json");
    readTokenizerJson(path, s.parse, s.cache("cccc"));
    readTokenizerJson(path, s.parse, s.cache("cccc"));
    expect(s.parsed).toHaveLength(2);
    expect(existsSync(join(s.dir, "cache"))).toBe(false);
  });
});
