/** The navigation measurement's scores (scripts/bench/lib/navigation-metrics.ts). */
import { describe, expect, test } from "bun:test";
import { countPassages, scoreNavigation, summariseNavigation } from "../../scripts/bench/lib/navigation-metrics.ts";

const NAV = new Set(["faq/index.html", "guide/index.html"]);
const ANSWERS = new Map([
  ["faq/chapter.html", 2],
  ["faq/book.txt", 1],
]);

describe("one question", () => {
  test("a ToC page first counts as first, in the top 3 and above the answer", () => {
    const s = scoreNavigation(["faq/index.html", "faq/chapter.html", "faq/book.txt"], NAV, ANSWERS);
    expect(s).toMatchObject({ navTop1: true, navTop3: true, navAboveAnswer: true, recall10: 1, mrr10: 0.5 });
  });

  test("a ToC page third, below the answer, is in the top 3 but not above the answer", () => {
    const s = scoreNavigation(["faq/chapter.html", "other.pdf", "guide/index.html", "faq/book.txt"], NAV, ANSWERS);
    expect(s).toMatchObject({ navTop1: false, navTop3: true, navAboveAnswer: false, mrr10: 1, recall10: 1 });
  });

  test("a ToC page fourth is neither first nor in the top 3", () => {
    const s = scoreNavigation(["faq/chapter.html", "a", "b", "faq/index.html"], NAV, ANSWERS);
    expect(s).toMatchObject({ navTop1: false, navTop3: false, navAboveAnswer: false });
  });

  test("a ToC page in the top 10 with no answering page there is above the answer", () => {
    const ranked = ["a", "b", "c", "d", "e", "f", "g", "h", "faq/index.html", "i", "faq/chapter.html"];
    expect(scoreNavigation(ranked, NAV, ANSWERS)).toMatchObject({ navTop3: false, navAboveAnswer: true, ndcg10: 0, mrr10: 0, recall10: 0 });
  });

  test("nDCG@10 weighs the chapter page above the book", () => {
    const chapterFirst = scoreNavigation(["faq/chapter.html", "faq/book.txt"], NAV, ANSWERS).ndcg10;
    const bookFirst = scoreNavigation(["faq/book.txt", "faq/chapter.html"], NAV, ANSWERS).ndcg10;
    expect(chapterFirst).toBeCloseTo(1, 10);
    expect(bookFirst).toBeLessThan(chapterFirst);
  });
});

test("a summary gives shares of questions for the ToC flags and means for the rest", () => {
  const per = [
    scoreNavigation(["faq/index.html", "faq/chapter.html"], NAV, ANSWERS),
    scoreNavigation(["faq/chapter.html", "faq/index.html"], NAV, ANSWERS),
    scoreNavigation(["faq/chapter.html", "x", "y", "z"], NAV, ANSWERS),
    scoreNavigation(["x", "guide/index.html", "faq/book.txt"], NAV, ANSWERS),
  ];
  const s = summariseNavigation(per);
  expect(s.questions).toBe(4);
  expect(s.navTop1).toBe(0.25);
  expect(s.navTop3).toBe(0.75);
  expect(s.navAboveAnswer).toBe(0.5);
  expect(s.mrr10).toBeCloseTo((0.5 + 1 + 1 + 1 / 3) / 4, 10);
});

describe("answer in the first passage", () => {
  const answers = [
    { page: "faq/chapter.html", quote: "Debra and *Ian* Murdock" },
    { page: "faq/book.txt", quote: "Debra and Ian Murdock" },
    { page: "faq/book.pdf", quote: "Debra and Ian Murdock" },
  ];

  test("counts the pages among the hits, and those whose first section holds the quote in quote form", () => {
    const sections = new Map([
      ["faq/chapter.html", "The name: Debra and Ian\nMurdock founded it."],
      ["faq/book.txt", "1.2. Where does the name come from?\n1.3. What is Linux?"],
    ]);
    expect(countPassages(answers, (page) => sections.get(page))).toEqual({ pages: 2, held: 1, bookPages: 1, bookHeld: 0 });
  });

  test("the summary pools the pages of every question, all and books alone", () => {
    const held = { pages: 2, held: 2, bookPages: 1, bookHeld: 1 };
    const missed = { pages: 2, held: 1, bookPages: 2, bookHeld: 0 };
    const s = summariseNavigation([scoreNavigation([], NAV, ANSWERS, held), scoreNavigation([], NAV, ANSWERS, missed)]);
    expect(s.answerInPassage).toBe(3 / 4);
    expect(s.bookAnswerInPassage).toBe(1 / 3);
  });
});
