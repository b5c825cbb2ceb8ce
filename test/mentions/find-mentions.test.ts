/** find_mentions end to end: committed files synced into real LanceDB with the tiny model, then searched, scoped, paged and refreshed. */
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { findMentions, PAGE_SIZE } from "../../src/search/find-mentions.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { FIXTURES, failure, testApp, writeTree } from "../helpers.ts";

let app: App;
let root: string;
/** A file name as macOS stores it: Ё decomposed into Е + U+0308. Written here, not committed, so no checkout can recompose it. */
const NFD_NAME = "ОТЧЕ\u0308Т поставщика.md";

beforeAll(async () => {
  ({ app, root } = await testApp());
  cpSync(join(FIXTURES, "mentions"), root, { recursive: true });
  cpSync(join(FIXTURES, "pdf/handbook.pdf"), join(root, "handbook.pdf"));
  writeTree(root, { [NFD_NAME]: "Сводка по поставщикам за квартал, без замечаний." });
  expect((await runSync(app)).counts).toMatchObject({ ingested: 7, failed: 0 });
});

const sources = (result: { documents: { displayPath: string }[] }) => result.documents.map((d) => d.displayPath);

describe("find_mentions over a real index", () => {
  test("акт finds акта and актуально, never контакт, and lists each form with its document count", async () => {
    const result = await findMentions(app, { terms: ["акт"] });
    expect(sources(result)).toEqual(["акт-сверки.md"]);
    expect(result.searchedDocuments).toBe(7);
    expect(result.matchedDocuments).toBe(1);
    expect(result.forms.map((f) => f.form).sort()).toEqual(["акт", "акта", "актуально"]);
    expect(result.forms.every((f) => f.term === "акт" && f.documents === 1)).toBe(true);
  });

  test("a quoted term matches the whole word only", async () => {
    expect((await findMentions(app, { terms: ['"акта"'] })).forms).toEqual([{ term: '"акта"', form: "акта", documents: 1 }]);
    expect((await findMentions(app, { terms: ['"контакт"'] })).documents[0]!.firstMatch!.snippet).toContain("Контакт менеджера");
    expect((await findMentions(app, { terms: ['"актуальн"'] })).matchedDocuments).toBe(0);
  });

  test("отчет finds ОТЧЁТ in text, отчёта as a form, and the NFD file name as a title match listed first", async () => {
    const result = await findMentions(app, { terms: ["отчет"] });
    expect(sources(result)[0]).toBe(NFD_NAME);
    expect(result.documents[0]!).toMatchObject({ titleMatch: true, matchedChunks: 0 });
    expect(result.documents[0]!.title.normalize("NFD")).toBe(result.documents[0]!.title); // the title really is stored decomposed
    expect(result.documents[0]!.firstMatch).toBeUndefined();
    expect(sources(result).slice(1).sort()).toEqual(["отчёт-склад.md", "служебка.txt"].sort());
    expect(result.forms.map((f) => f.form).sort()).toEqual(["отчет", "отчета"]);
    const warehouse = result.documents.find((d) => d.displayPath === "отчёт-склад.md")!;
    expect(warehouse.firstMatch!.snippet).toContain("ГОДОВОЙ ОТЧЁТ СКЛАДА");
  });

  test("escapes, soft hyphens and zero-width characters left by conversion are ignored", async () => {
    expect(sources(await findMentions(app, { terms: ["ТЗ_2024_015"] }))).toEqual(["акт-сверки.md"]);
    expect(sources(await findMentions(app, { terms: ['"договор"'] }))).toEqual(["акт-сверки.md"]);
    expect(sources(await findMentions(app, { terms: ["переносе"] }))).toEqual(["служебка.txt"]);
  });

  test("a phrase broken across a line is found", async () => {
    const result = await findMentions(app, { terms: ["акта сверки"] });
    expect(sources(result)).toEqual(["акт-сверки.md"]);
    expect(result.documents[0]!.firstMatch!.snippet).toContain("данные акта сверки актуально");
  });

  test("match all needs every term in a document; match any one of them", async () => {
    expect(sources(await findMentions(app, { terms: ["отчет", "2024"] }))).toEqual(["отчёт-склад.md"]);
    const any = await findMentions(app, { terms: ["контакт", "report"], match: "any" });
    expect(sources(any).sort()).toEqual(["annual-report.md", "contacts.md"]);
    expect(any.documents[0]!.titleMatch).toBe(true);
  });

  test("a term starting with a dash is found", async () => {
    expect(sources(await findMentions(app, { terms: ["-15%"] }))).toEqual(["отчёт-склад.md"]);
  });

  test("a PDF mention carries the page it is on", async () => {
    const result = await findMentions(app, { terms: ["lighthouses"] });
    expect(result.documents[0]!.firstMatch).toMatchObject({ pages: "2" });
  });

  test("scope narrows what is searched and counted", async () => {
    const result = await findMentions(app, { terms: ["2024"], scope: [join(root, "annual-report.md")] });
    expect(result).toMatchObject({ searchedDocuments: 1, matchedDocuments: 1 });
    const nothing = await findMentions(app, { terms: ["2024"], scope: [join(root, "missing")] });
    expect(nothing.notice).toContain("No indexed documents under scope");
  });

  test("no match says so, and what was searched", async () => {
    const result = await findMentions(app, { terms: ["несуществующее", "слово"] });
    expect(result).toMatchObject({ matchedDocuments: 0, matchedChunks: 0, documents: [], forms: [] });
    expect(result.notice).toContain("all of несуществующее, слово");
    expect(result.notice).toContain("all 7 indexed documents");
    expect(result.nextOffset).toBeUndefined();
  });

  test("bad input is refused with a hint", async () => {
    expect((await failure(findMentions(app, { terms: [] }))).code).toBe("INVALID_ARGUMENT");
    expect((await failure(findMentions(app, { terms: ["  "] }))).hint).toContain("Pass a word or phrase");
    expect((await failure(findMentions(app, { terms: ["акт"], offset: -1 }))).hint).toContain("nextOffset");
  });
});

describe("find_mentions keeps up with the index", () => {
  test("an empty index says so", async () => {
    const { app: empty } = await testApp();
    expect((await findMentions(empty, { terms: ["акт"] })).notice).toContain("The index is empty");
  });

  test("a changed file is searched as it is now, and a deleted one is gone", async () => {
    const { app: own, root: dir } = await testApp();
    writeTree(dir, { "a.md": "Первая редакция про склад.", "b.md": "Про склад тоже." });
    await runSync(own);
    expect((await findMentions(own, { terms: ["склад"] })).matchedDocuments).toBe(2);
    writeFileSync(join(dir, "a.md"), "Вторая редакция про магазин.");
    await runSync(own);
    expect(sources(await findMentions(own, { terms: ["склад"] }))).toEqual(["b.md"]);
    expect(sources(await findMentions(own, { terms: ["магазин"] }))).toEqual(["a.md"]);
    rmSync(join(dir, "b.md"));
    await runSync(own);
    expect((await findMentions(own, { terms: ["склад"] })).matchedDocuments).toBe(0);
  });

  test(`pages hold ${PAGE_SIZE} documents; nextOffset leads to the rest and the counts cover every match`, async () => {
    const { app: own, root: dir } = await testApp();
    const count = PAGE_SIZE + 5;
    writeTree(dir, Object.fromEntries(Array.from({ length: count }, (_, i) => [`notes/note-${String(i).padStart(3, "0")}.md`, `Заметка ${i}: маркер ${"раз ".repeat(i % 3 + 1)}`])));
    expect((await runSync(own)).counts.ingested).toBe(count);
    const first = await findMentions(own, { terms: ["маркер"] });
    expect(first).toMatchObject({ matchedDocuments: count, matchedChunks: count, nextOffset: PAGE_SIZE });
    expect(first.documents.length).toBe(PAGE_SIZE);
    const second = await findMentions(own, { terms: ["маркер"], offset: first.nextOffset });
    expect(second).toMatchObject({ matchedDocuments: count, matchedChunks: count });
    expect(second.nextOffset).toBeUndefined();
    expect(second.documents.length).toBe(5);
    expect(new Set([...sources(first), ...sources(second)]).size).toBe(count);
    expect(second.notice).toBeUndefined();
    // A page past the end says so, beside the counts that still hold.
    const past = await findMentions(own, { terms: ["маркер"], offset: count + 10 });
    expect(past).toMatchObject({ matchedDocuments: count, documents: [] });
    expect(past.notice).toBe(`offset ${count + 10} is past the last of the ${count} matched documents; pages start at 0, ${PAGE_SIZE} documents each.`);
  }, 300_000);
});
