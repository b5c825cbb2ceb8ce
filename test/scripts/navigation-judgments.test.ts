/** The committed judgments of the navigation measurement and the checks the bench runs on them (scripts/bench/lib/navigation-judgments.ts). */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadNavigationJudgments, missingQuotes, quoteForm, type NavigationJudgments } from "../../scripts/bench/lib/navigation-judgments.ts";

describe("the committed judgments", () => {
  const judgments = loadNavigationJudgments();

  test("hold about twenty questions in each language, each with a unique id", () => {
    const count = (lang: string) => judgments.questions.filter((q) => q.language === lang).length;
    expect(count("en")).toBeGreaterThanOrEqual(20);
    expect(count("ru")).toBeGreaterThanOrEqual(20);
    expect(new Set(judgments.questions.map((q) => q.id)).size).toBe(judgments.questions.length);
  });

  test("judge one chapter page per question at grade 2, in the question's language, and no page twice", () => {
    for (const q of judgments.questions) {
      const chapters = q.answers.filter((a) => a.grade === 2);
      expect(chapters.map((a) => a.page.includes(`/${q.language}/html/`))).toEqual([true]);
      expect(new Set(q.answers.map((a) => a.page)).size).toBe(q.answers.length);
    }
  });

  test("name every page under the indexed folder, the navigation pages among them", () => {
    const pages = [...judgments.navigation, ...judgments.questions.flatMap((q) => q.answers.map((a) => a.page))];
    expect(pages.every((p) => p.startsWith("office/debian/"))).toBe(true);
  });
});

const sample = (answers: NavigationJudgments["questions"][number]["answers"]): NavigationJudgments => ({
  about: [],
  navigation: ["faq/index.html"],
  questions: [{ id: "en-01", language: "en", question: "Who founded Debian?", answers }],
});

test("a judgments file that puts an answer on a navigation page is refused, naming the page", () => {
  const dir = mkdtempSync(join(tmpdir(), "nav-judgments-"));
  const path = join(dir, "judgments.json");
  writeFileSync(path, JSON.stringify(sample([{ page: "faq/index.html", grade: 2, quote: "created by Ian Murdock" }])));
  expect(() => loadNavigationJudgments(path)).toThrow("en-01 is judged answered by the navigation page faq/index.html");
});

describe("quotes", () => {
  test("match across Markdown marks, escapes, quote styles and line breaks", () => {
    expect(quoteForm('to include the **appropriate** ”deb-src”\n lines, you’ll')).toBe(quoteForm(`to include the appropriate "deb-src" lines, you'll`));
    expect(quoteForm("apt-mark hold имя\\_пакета")).toBe(quoteForm("apt-mark hold имя_пакета"));
  });

  test("a quote that is not in its page is reported with the question and the page", () => {
    const judgments = sample([
      { page: "faq/chapter.html", grade: 2, quote: "created by Ian Murdock in 1993" },
      { page: "faq/book.txt", grade: 1, quote: "created by Ian Murdock in 1993" },
    ]);
    const texts: Record<string, string> = { "faq/chapter.html": "The Debian Project was created by _Ian Murdock_ in\n1993.", "faq/book.txt": "The Debian Project was founded." };
    expect(missingQuotes(judgments, (page) => texts[page]!)).toEqual(['en-01: faq/book.txt: "created by Ian Murdock in 1993"']);
  });
});
