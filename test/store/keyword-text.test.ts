import { describe, expect, test } from "bun:test";
import { keywordText, keywordWord } from "../../src/store/keyword-text.ts";
import { keywordColumns, LEGACY_SEARCH_COLUMNS, missingNow, SEARCH_COLUMNS } from "../../src/store/search-columns.ts";

describe("the words the full-text index sees", () => {
  test.each([
    ["акта", "акт"],
    ["акты", "акт"],
    ["актом", "акт"],
    ["Актов", "акт"],
    ["Ёлка", "елк"],
    ["ёлки", "елк"],
    // Stress marks, as dictionaries print them, would split LanceDB's tokens.
    ["а\u0301кта", "акт"],
    ["уступила", "уступ"],
    ["уступил", "уступ"],
  ])("the Russian word %s is stemmed to %s", (word, stem) => {
    expect(keywordWord(word)).toBe(stem);
  });

  test.each([
    ["Pumps", "Pumps"],
    ["café", "café"],
    ["2015", "2015"],
    ["iPhone", "iPhone"],
    // Latin letters beside Cyrillic ones (a homoglyph, a code): not a Russian word, so not stemmed.
    ["Mоscow", "Mоscow"],
    ["5го", "5го"],
  ])("the word %s is left to LanceDB's own tokenizer as %s", (word, kept) => {
    expect(keywordWord(word)).toBe(kept);
  });

  test.each([
    ["Сколько очков уступила защита Пэнтерс?", "скольк очк уступ защит пэнтерс"],
    ["Сколько мешков за карьеру было у Джареда Аллена?", "скольк мешк за карьер был у джаред алл"],
    ["How many points did the Panthers defense surrender?", "How many points did the Panthers defense surrender"],
    ["Установка Windows 11 на ноутбуки Lenovo", "установк Windows 11 на ноутбук Lenovo"],
    ["COVID-19: меры, принятые в 2020 г.", "COVID 19 мер принят в 2020 г"],
    ["# Заголовок\n\n| колонка | значение |\n|---|---|", "заголовок колонк значен"],
    // A decomposed ё (е + U+0308) is the same word as the composed one.
    ["е\u0308лки", "елк"],
    ["?!", ""],
  ])("%j is indexed as %j", (text, indexed) => {
    expect(keywordText(text)).toBe(indexed);
  });

  test("a query and a document with other inflections of the same words meet on the same stems", () => {
    const document = keywordText("Акты гражданского состояния регистрируются органами ЗАГС.").split(" ");
    const query = keywordText("где регистрируют акт гражданского состояния").split(" ");
    expect(query.filter((w) => document.includes(w))).toEqual(["регистрир", "акт", "гражданск", "состоян"]);
  });
});

describe("which columns keyword search reads", () => {
  test("the search columns once both have an index", () => {
    expect(keywordColumns(["text_search", "title_search", "source"])).toBe(SEARCH_COLUMNS);
  });

  test.each([[["text", "title", "source"]], [["text", "title", "text_search"]], [[]]])("the old text and title while the search columns lack an index (%j)", (indexed) => {
    expect(keywordColumns(indexed)).toBe(LEGACY_SEARCH_COLUMNS);
  });

  test.each([
    ["an index from before the search columns: their indexes are due, not missing", ["text", "title", "source", "parent_id"], ["text_search", "title_search"], []],
    ["no full-text index at all: all missing", ["source", "parent_id"], ["text_search", "title_search"], ["text_search", "title_search"]],
    ["the search columns indexed, a btree lost", ["text_search", "title_search", "source"], ["parent_id"], ["parent_id"]],
    ["old indexes, a btree lost too", ["text", "title", "source"], ["text_search", "title_search", "parent_id"], ["parent_id"]],
  ])("status: %s", (_, indexed, missing, reported) => {
    expect(missingNow(missing, indexed)).toEqual(reported);
  });
});
