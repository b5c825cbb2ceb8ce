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

  test("one changed bit anywhere (the header's length or sizes, a score, the table, the prefix filter, a token) is refused and tokenizer.json parsed instead", () => {
    const s = setup();
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    const file = join(s.dir, "cache", "aaaa.tokenizer");
    const good = readFileSync(file);
    // The layout (tokenizer-cache.ts): header length; the magic, checksum and description lines; from a multiple of 8
    // the scores, the table's slots and hashes, the prefix filter, then the tokens.
    const headerLength = good.readUInt32LE(0);
    const header = JSON.parse(good.subarray(4, 4 + headerLength).toString().split("\n")[2]!) as { count: number; tableSize: number; prefixWords: number };
    const scoresAt = Math.ceil((4 + headerLength) / 8) * 8;
    const slotsAt = scoresAt + header.count * 8;
    const filterAt = slotsAt + header.tableSize * 8;
    const firstSetBit = (from: number) => from + good.subarray(from).findIndex((b) => b !== 0);
    const places = {
      "the header's length": 0,
      "the longest token's length in the header": good.indexOf('"maxUnits":') + '"maxUnits":'.length,
      "a score": scoresAt + 6,
      "a slot of the table": slotsAt + 5,
      "a bit of the prefix filter": firstSetBit(filterAt),
      "a token": good.length - 2,
    };
    for (const [what, at] of Object.entries(places)) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 1;
      writeFileSync(file, bad);
      const json = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
      expect({ what, refused: s.lines.at(-1)?.includes("checksum does not match") }).toEqual({ what, refused: true });
      expect(s.encode(json)).toEqual(s.encode(JSON.parse(readFileSync(s.path, "utf8"))));
      expect(readFileSync(file)).toEqual(good);
    }
    expect(s.parsed).toHaveLength(1 + Object.keys(places).length);
  });

  test("a vocabulary with a token that UTF-8 cannot carry (a lone surrogate) is never cached, and encodes as the library does", () => {
    const s = setup();
    const json = unigramJson() as { model: { vocab: [string, number][] } };
    json.model.vocab.push(["\uD800x", -3]);
    writeFileSync(s.path, JSON.stringify(json));
    readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    const again = readTokenizerJson(s.path, s.parse, s.cache("aaaa"));
    expect(s.parsed).toHaveLength(2);
    expect(existsSync(join(s.dir, "cache", "aaaa.tokenizer"))).toBe(false);
    expect(s.encode(again)).toEqual(s.encode(JSON.parse(readFileSync(s.path, "utf8"))));
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
