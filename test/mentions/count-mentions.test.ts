/** Counting over documents: all/any, titles, a repeated heading counted once, forms with document counts, and the order of documents. */
import { describe, expect, test } from "bun:test";
import { FORMS_PER_TERM, countMentions, type MatchMode } from "../../src/mentions/count-mentions.ts";
import { toDocuments } from "../../src/mentions/mention-index.ts";
import { snippetOf } from "../../src/mentions/snippet.ts";
import { parseTerms } from "../../src/mentions/terms.ts";
import type { MentionRow } from "../../src/store/mention-rows.ts";

/** Rows of one document: each chunk is [text, contextLines]; all in one section unless parent ids are given. */
function doc(source: string, title: string, chunks: [string, number | null, string?][], scheme = 4): MentionRow[] {
  return chunks.map(([text, contextLines, parent], i) => ({ source, title, chunkIndex: i, parentId: `${source}#${parent ?? "p0"}`, text, contextLines, pages: null, scheme }));
}

const CORPUS = toDocuments([
  // A section cut into three chunks, each repeating the breadcrumb "Поставка > Сроки" after the first.
  ...doc("/d/supply.md", "Договор поставки", [
    ["Поставка > Сроки\n\nТовар отгружается в течение 10 дней.", 0],
    ["Поставка > Сроки\n\nАкт приёмки подписывается при получении.", 2],
    ["Поставка > Сроки\n\nОплата по счёту, акта сверки не требуется.", 2],
  ]),
  ...doc("/d/contacts.md", "Контакты", [["Контакт менеджера: +7 000.", 0]]),
  ...doc("/d/ОТЧЕ\u0308Т 2024.md", "ОТЧЕ\u0308Т 2024", [["Итоги года: актуально на декабрь.", 0]]),
  ...doc("/d/report.md", "Annual report", [
    ["# Annual report\n\nThe report covers 2024.", 2],
    ["Reporting lines changed in May.", 0],
  ]),
  // Rows from an index built before context lines were recorded: the shared breadcrumb line is guessed.
  ...doc("/d/legacy.md", "Старый", [
    ["Поставка > Этапы\n\nПервый этап.", null],
    ["Поставка > Этапы\n\nВторой этап.", null],
  ]),
]);

function run(terms: string[], mode: MatchMode = "all") {
  return countMentions(CORPUS, parseTerms(terms), mode);
}

describe("countMentions", () => {
  test("a heading that every chunk of a section repeats counts once", () => {
    const result = run(["сроки"]);
    expect(result.documents.map((d) => [d.doc.source, d.matchedChunks])).toEqual([["/d/supply.md", 1]]);
    expect(result.matchedChunks).toBe(1);
  });

  test("a legacy chunk's repeated breadcrumb is guessed from the chunk before it and counts once too", () => {
    expect(run(["этапы"]).documents.map((d) => d.matchedChunks)).toEqual([1]);
  });

  test("a term in a chunk's own text counts that chunk", () => {
    const result = run(["акт"]);
    expect(result.documents.map((d) => [d.doc.source, d.matchedChunks])).toEqual([
      ["/d/supply.md", 2],
      ["/d/ОТЧЕ\u0308Т 2024.md", 1],
    ]);
    expect(result.matchedChunks).toBe(3);
  });

  test("forms list each word form with the number of matched documents that have it", () => {
    expect(run(["акт"]).forms).toEqual([
      { term: "акт", form: "акт", documents: 1 },
      { term: "акт", form: "акта", documents: 1 },
      { term: "акт", form: "актуально", documents: 1 },
    ]);
  });

  test("an NFD title matches a composed term, and title matches come first", () => {
    const result = run(["отчет"], "any");
    expect(result.documents.map((d) => [d.doc.source, d.titleMatch])).toEqual([["/d/ОТЧЕ\u0308Т 2024.md", true]]);
    const both = run(["отчет", "report"], "any");
    expect(both.documents.map((d) => d.titleMatch)).toEqual([true, true]);
    expect(both.documents.map((d) => d.doc.source)).toEqual(["/d/report.md", "/d/ОТЧЕ\u0308Т 2024.md"]);
  });

  test("match all keeps documents with every term, in the title or the text; match any those with one", () => {
    expect(run(["акт", "оплата"]).documents.map((d) => d.doc.source)).toEqual(["/d/supply.md"]);
    expect(run(["актуально", "итоги", "2024"]).documents.map((d) => d.doc.source)).toEqual(["/d/ОТЧЕ\u0308Т 2024.md"]);
    expect(run(["контакт", "reporting"], "any").documents.map((d) => d.doc.source).sort()).toEqual(["/d/contacts.md", "/d/report.md"]);
    expect(run(["контакт", "reporting"], "all").documents).toEqual([]);
  });

  test("documents with more matching chunks come first among non-title matches", () => {
    const result = run(['"акт"', '"акта"', "актуально"], "any");
    expect(result.documents.map((d) => [d.doc.source, d.matchedChunks])).toEqual([
      ["/d/supply.md", 2],
      ["/d/ОТЧЕ\u0308Т 2024.md", 1],
    ]);
  });

  test("a seeded title is context, so it is counted as a title match only", () => {
    const result = run(["annual"]);
    expect(result.documents.map((d) => [d.titleMatch, d.matchedChunks, d.firstChunk])).toEqual([[true, 0, null]]);
  });

  test("the first matching chunk is the earliest", () => {
    expect(run(["report"]).documents[0]!.firstChunk!.chunkIndex).toBe(0);
    expect(run(["reporting"]).documents[0]!.firstChunk!.chunkIndex).toBe(1);
  });
});

describe("snippetOf", () => {
  test("shows the document's own spelling around the first mention, without the context lines", () => {
    const text = "Поставка > Сроки\n\nВ начале много слов. ".concat("Слово ".repeat(30), "Годовой ОТЧЁТ\nсдан вовремя. ", "Хвост ".repeat(30));
    const snippet = snippetOf(text, 2, parseTerms(["отчет сдан"]));
    expect(snippet).toContain("Годовой ОТЧЁТ сдан вовремя.");
    expect(snippet.startsWith("… ")).toBe(true);
    expect(snippet.endsWith(" …")).toBe(true);
    expect(snippet).not.toContain("Поставка");
  });

  test("maps through escapes and soft hyphens back to the original text", () => {
    expect(snippetOf("См. ТЗ\\_2024\\_015 и дого\u00adвор.", 0, parseTerms(["тз_2024_015"]))).toBe("См. ТЗ\\_2024\\_015 и дого\u00adвор.");
  });
});

describe("forms of a short prefix", () => {
  test(`list the ${FORMS_PER_TERM} commonest per term and count the rest`, () => {
    const words = Array.from({ length: FORMS_PER_TERM + 20 }, (_, i) => `про${String.fromCharCode(0x430 + (i % 32))}${String.fromCharCode(0x430 + Math.floor(i / 32))}`);
    const docs = toDocuments(words.map((w, i) => ({ source: `/d/${i}.md`, title: "t", chunkIndex: 0, parentId: null, text: i === 0 ? words.join(" ") : w, contextLines: 0, pages: null, scheme: 4 })));
    const result = countMentions(docs, parseTerms(["про"]), "all");
    expect(result.forms.length).toBe(FORMS_PER_TERM);
    expect(result.formsLeftOut).toBe(20);
    expect(result.forms[0]!.documents).toBe(2);
  });
});

describe("a mention across the seam of two chunks", () => {
  // Exact-scheme chunks: each one's own text runs to where the next begins, so together they are the document.
  const SEAMS = toDocuments([
    ...doc("/d/q3.md", "Q3", [
      ["The net ", 0],
      ["revenue grew by 4%. The hash is abcdef", 0],
      ["0123456789 and more.", 0],
    ]),
    ...doc("/d/a.md", "A", [["It ends with net ", 0]]),
    ...doc("/d/b.md", "B", [["revenue starts this one.", 0]]),
  ]);
  const find = (terms: string[], mode: MatchMode = "all") => countMentions(SEAMS, parseTerms(terms), mode);

  test("a phrase and a run without spaces cut between chunks are found, counted for the chunk they start in", () => {
    const phrase = find(["net revenue"]);
    expect(phrase.documents.map((d) => [d.doc.source, d.matchedChunks, d.firstChunk?.chunkIndex])).toEqual([["/d/q3.md", 1, 0]]);
    expect(phrase.forms).toEqual([{ term: "net revenue", form: "net revenue", documents: 1 }]);
    expect(find(['"abcdef0123456789"']).documents.map((d) => d.firstChunk?.chunkIndex)).toEqual([1]);
    // An open end runs on into the next chunk's word; a quoted one must end there.
    expect(find(["abcdef01"]).forms).toEqual([{ term: "abcdef01", form: "abcdef0123456789", documents: 1 }]);
    expect(find(['"abcdef01"']).documents).toEqual([]);
  });

  test("a match inside one chunk that touches its edge is judged by the next chunk: a word that goes on is no quoted match and no word start (found in review)", () => {
    expect(find(['"abcdef"']).documents).toEqual([]);
    expect(find(["0123456789"]).documents).toEqual([]);
    expect(find(['"0123456789"']).documents).toEqual([]);
    expect(find(["abcdef"]).forms).toEqual([{ term: "abcdef", form: "abcdef0123456789", documents: 1 }]);
    expect(find(['"abcdef0123456789"']).documents).toHaveLength(1);
  });

  test("a word runs on across as many chunks as it spans, and chunks with no own text are passed over", () => {
    const docs = toDocuments(doc("/d/run.md", "Run", [["The id is ab", 0], ["cd", 0], ["", 0], ["ef and so on.", 0]]));
    expect(countMentions(docs, parseTerms(["ab"]), "all").forms).toEqual([{ term: "ab", form: "abcdef", documents: 1 }]);
    expect(countMentions(docs, parseTerms(["bcd"]), "all").documents).toEqual([]);
    expect(countMentions(docs, parseTerms(['"cd"']), "all").documents).toEqual([]);
  });

  test("rows of an index cut before chunk scheme 4 have no text at their seams: nothing is matched across them", () => {
    for (const [scheme, contextLines] of [[2, null], [3, 2], [4, null]] as const) {
      const legacy = toDocuments(doc("/d/old.md", "Old", [["См. пункт 1", contextLines], ["2. Сроки поставки", contextLines]], scheme));
      expect({ scheme, found: countMentions(legacy, parseTerms(['"12"']), "all").documents.length }).toEqual({ scheme, found: 0 });
    }
  });

  test("never across two documents, and the word-start rule holds at the seam", () => {
    expect(find(["ends with net revenue"]).documents).toEqual([]);
    expect(find(["et revenue"]).documents).toEqual([]);
    expect(find(["net revenue", "starts"], "any").documents.map((d) => d.doc.source).sort()).toEqual(["/d/b.md", "/d/q3.md"]);
  });

  test("the snippet of a mention that runs into the next chunk shows it whole", () => {
    expect(snippetOf("The net ", 0, parseTerms(["net revenue"]), { text: "revenue grew by 4%.", contextLines: 0 })).toBe("The net revenue grew by 4%.");
  });
});
