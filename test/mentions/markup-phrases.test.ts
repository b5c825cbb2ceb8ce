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
  for (const phrase of ["first HTML5 Canvas", '"really important"', "Press Ctrl key", "счёту ТЗ_2024_015 прошла", "first **HTML5** Canvas"]) {
    const found = await findMentions(app, { terms: [phrase] });
    expect([phrase, found.matchedDocuments]).toEqual([phrase, 1]);
  }
  expect((await findMentions(app, { terms: ["first HTML5 Canvas"] })).documents[0]!.firstMatch!.snippet).toContain("first **HTML5** Canvas");
  expect((await findMentions(app, { terms: ["2024"] })).matchedDocuments).toBe(1);
  expect((await findMentions(app, { terms: ['"ТЗ"'] })).matchedDocuments).toBe(1);
  // A run before a dot and a word is no mark: foo_*.tar.gz is not foo.tar.gz, and the escaped form is the typed one.
  expect((await findMentions(app, { terms: ["foo_*.dsc"] })).matchedDocuments).toBe(0);
  expect((await findMentions(app, { terms: ["foo_*.tar.gz"] })).matchedDocuments).toBe(1);
});
