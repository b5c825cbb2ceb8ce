import { describe, expect, test } from "bun:test";
import { fuseRankings } from "../../src/search/fusion.ts";
import { keywordCoverage } from "../../src/search/keyword-coverage.ts";
import type { Hit } from "../../src/store/chunk-store.ts";
import { keywordText } from "../../src/store/keyword-text.ts";

/** A keyword hit as the store returns it: the search columns are the stemmed copies of text and title. */
function hit(text: string, title = "doc", withColumns = true): Hit {
  const base = { id: text, source: title, source_type: "file", title, chunk_index: 0, parent_id: null, text, scheme: 3, content_hash: "h", mtime: 0, file_size: 0, ingested_at: "", ocr_engine: "" } as const;
  return withColumns ? { ...base, text_search: keywordText(text), title_search: keywordText(title) } : { ...base };
}

describe("keyword coverage: the share of the query's words the keyword hits matched", () => {
  test.each([
    ["every word in one hit", "How many tackles did Kuechly register?", [hit("Luke Kuechly registered 118 tackles; how many did he miss?")], 1],
    ["English words matched through stemming (registered, tackles)", "register tackle", [hit("He registered 118 tackles.")], 1],
    ["Russian words in other inflections", "сколько перехватов сделал Норман", [hit("Джош Норман сделал два перехвата, сколько и в прошлом сезоне.")], 1],
    ["words spread over several hits count once each", "pumps valves night", [hit("The pumps"), hit("the valves")], 2 / 3],
    // "в" is a stop word (keywordQuery): six words to match, of which the number alone is matched.
    ["a Russian question over English text, matched only by a number", "Сколько очков набрали Пэнтерс в 2015 году?", [hit("The Panthers scored 500 points in 2015.")], 1 / 6],
    ["words found only in the title", "насосная станция", [hit("The pumps run at night.", "Насосные станции")], 1],
    ["an index without the search columns: the hit's text is reduced here", "актом", [hit("Акты гражданского состояния", "zags", false)], 1],
    // A search on the search columns brings them and not the text: one of them unset still leaves the other's words.
    ["a hit with only its title's search column", "насосная станция", [{ ...hit("The pumps run at night.", "Насосные станции"), text: undefined, title: undefined, text_search: null }], 1],
  ])("%s", (_, query, hits, expected) => {
    expect(keywordCoverage(query, hits)).toBeCloseTo(expected, 6);
  });

  test("no keyword hits: coverage 0", () => {
    expect(keywordCoverage("anything at all", [])).toBe(0);
  });

  test("a hit whose match our comparison cannot see (LanceDB folds café to cafe) still counts as one word", () => {
    expect(keywordCoverage("café prices menu", [hit("The cafe opens at nine.")])).toBeCloseTo(1 / 3, 6);
  });
});

describe("weighted RRF scaled by keyword coverage", () => {
  type C = { source: string; chunk_index: number; distance: number | null };
  const vector: C[] = [
    { source: "a", chunk_index: 0, distance: 0.2 },
    { source: "b", chunk_index: 0, distance: 0.3 },
  ];
  const keyword: C[] = [
    { source: "b", chunk_index: 0, distance: null },
    { source: "k", chunk_index: 0, distance: null },
  ];

  test("full coverage is the plain weighted RRF", () => {
    expect(fuseRankings(vector, keyword, 0.6, 1).map((f) => f.score)).toEqual(fuseRankings(vector, keyword, 0.6).map((f) => f.score));
  });

  test("low coverage lets the vector ranking lead: a keyword-only hit no longer outranks the best vector hit", () => {
    expect(fuseRankings(vector, keyword, 0.6, 1).map((f) => f.item.source)).toEqual(["b", "k", "a"]);
    expect(fuseRankings(vector, keyword, 0.6, 0.1).map((f) => f.item.source)).toEqual(["b", "a", "k"]);
    const fused = fuseRankings(vector, keyword, 0.6, 0.1);
    expect(fused.find((f) => f.item.source === "k")!.score).toBeCloseTo((0.6 * 0.1) / 62, 12);
  });

  test("at w = 1 the keyword order stands whatever the coverage, ahead of vector-only hits", () => {
    expect(fuseRankings(vector, keyword, 1, 0.2).map((f) => f.item.source)).toEqual(["b", "k", "a"]);
    expect(fuseRankings(vector, keyword, 1, 0.2).at(-1)!.score).toBe(0);
  });
});
