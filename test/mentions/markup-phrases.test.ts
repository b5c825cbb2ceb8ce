/**
 * A phrase the reader sees is found though the converter marked it up
 * (src/text/normalize.ts MARKUP): bold, italic and code marks around words.
 * Found by a probe on real files: "proud to present the first HTML5 Canvas"
 * in ONLYOFFICE's sample DOCX, converted as `the first **HTML5** Canvas`.
 */
import { expect, test } from "bun:test";
import { findMentions } from "../../src/search/find-mentions.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { testApp, writeTree } from "../helpers.ts";

test("phrases across emphasis and code marks are found, with the marked-up text in the snippet; marks inside words stay", async () => {
  const { app, root } = await testApp();
  writeTree(root, {
    "markup.md": [
      "We are proud to present the first **HTML5** Canvas-based editors.",
      "This is _really_ important stuff.",
      "Press `Ctrl` key now.",
      "Оплата по счёту __ТЗ_2024_015__ прошла.",
    ].join("\n\n"),
    "plain.md": "Nothing marked up here: the first HTML6 editors, and foo.dsc beside foo\\_\\*.tar.gz.",
  });
  expect((await runSync(app)).counts).toMatchObject({ ingested: 2, failed: 0 });
  for (const phrase of ["first HTML5 Canvas", '"really important"', "Press Ctrl key", "счёту ТЗ_2024_015 прошла"]) {
    const found = await findMentions(app, { terms: [phrase] });
    expect([phrase, found.matchedDocuments]).toEqual([phrase, 1]);
  }
  expect((await findMentions(app, { terms: ["first HTML5 Canvas"] })).documents[0]!.firstMatch!.snippet).toContain("first **HTML5** Canvas");
  expect((await findMentions(app, { terms: ["2024"] })).matchedDocuments).toBe(1);
  expect((await findMentions(app, { terms: ['"ТЗ"'] })).matchedDocuments).toBe(1);
  // A term is taken as typed: marks in it are text (so __init__ stays __init__).
  expect((await findMentions(app, { terms: ["first **HTML5** Canvas"] })).matchedDocuments).toBe(0);
  // A run before a dot and a word is no mark: foo_*.tar.gz is not foo.tar.gz, and the escaped form is the typed one.
  expect((await findMentions(app, { terms: ["foo_*.dsc"] })).matchedDocuments).toBe(0);
  expect((await findMentions(app, { terms: ["foo_*.tar.gz"] })).matchedDocuments).toBe(1);
});

test("identifiers keep their marks on both sides: __init__, *args and _id are found as written and match nothing else (found by a review)", async () => {
  const { app, root } = await testApp();
  writeTree(root, {
    "code.md": "Override `__init__` and pass `*args`; the \\_id field is kept.",
    "git.md": "Run git init, pass extra args and an id.",
  });
  expect((await runSync(app)).counts).toMatchObject({ ingested: 2, failed: 0 });
  for (const term of ["__init__", '"__init__"', "*args", "_id"]) {
    const found = await findMentions(app, { terms: [term] });
    expect([term, found.documents.map((d) => d.displayPath)]).toEqual([term, ["code.md"]]);
  }
});
