/**
 * Scores for the navigation-page measurement: whether a table-of-contents
 * page took the first place or one of the first three, whether it ranked
 * above every page that answers, and nDCG@10, Recall@10 and MRR@10 over the
 * content pages' graded judgments (navigation pages are judged 0).
 */
import { mean } from "./stats.ts";
import { mrrAt, ndcgAt, recallAt, type Judgments } from "./ir-metrics.ts";
import { quoteForm } from "./navigation-judgments.ts";

export interface NavigationQuestionScores {
  /** Answering pages among the hits, and of them those whose first hit's section holds the page's quote (books: TXT, PDF, EPUB). */
  passages: PassageCounts;
  navTop1: boolean;
  navTop3: boolean;
  /** A navigation page ranked above the first answering page (or was ranked while no answering page was in the top 10). */
  navAboveAnswer: boolean;
  ndcg10: number;
  recall10: number;
  mrr10: number;
}

export interface NavigationSummary {
  questions: number;
  /** Of the answering pages found, the share whose first passage (its first hit's section) holds the answer; and of the books alone. */
  answerInPassage: number;
  bookAnswerInPassage: number;
  navTop1: number;
  navTop3: number;
  navAboveAnswer: number;
  ndcg10: number;
  recall10: number;
  mrr10: number;
}

export interface PassageCounts {
  pages: number;
  held: number;
  bookPages: number;
  bookHeld: number;
}

/** A page a whole book is in: its contents section is a passage of its own, unlike a chapter page's. */
export function isBook(page: string): boolean {
  return /\.(txt|pdf|epub)$/i.test(page);
}

/**
 * Whether each answering page's first passage holds its answer: firstSection
 * gives the section a page's first hit came back in (undefined when the page
 * is not among the hits), quotes are compared in quoteForm. A page found by
 * its contents section, or by a heading standing alone, counts as found
 * without its answer.
 */
export function countPassages(answers: { page: string; quote: string }[], firstSection: (page: string) => string | undefined): PassageCounts {
  const counts: PassageCounts = { pages: 0, held: 0, bookPages: 0, bookHeld: 0 };
  for (const answer of answers) {
    const section = firstSection(answer.page);
    if (section === undefined) continue;
    const held = quoteForm(section).includes(quoteForm(answer.quote));
    counts.pages++;
    counts.held += held ? 1 : 0;
    if (isBook(answer.page)) {
      counts.bookPages++;
      counts.bookHeld += held ? 1 : 0;
    }
  }
  return counts;
}

/** One question's scores for a ranked list of documents. */
export function scoreNavigation(ranked: string[], navigation: ReadonlySet<string>, answers: Judgments, passages: PassageCounts = { pages: 0, held: 0, bookPages: 0, bookHeld: 0 }): NavigationQuestionScores {
  const top10 = ranked.slice(0, 10);
  const firstNav = top10.findIndex((d) => navigation.has(d));
  const firstAnswer = top10.findIndex((d) => (answers.get(d) ?? 0) > 0);
  return {
    passages,
    navTop1: firstNav === 0,
    navTop3: firstNav >= 0 && firstNav < 3,
    navAboveAnswer: firstNav >= 0 && (firstAnswer < 0 || firstNav < firstAnswer),
    ndcg10: ndcgAt(ranked, answers, 10),
    recall10: recallAt(ranked, answers, 10),
    mrr10: mrrAt(ranked, answers, 10),
  };
}

const share = (flags: boolean[]) => mean(flags.map((f) => (f ? 1 : 0)));

/** Shares of questions for the navigation flags, means for the rest. */
export function summariseNavigation(per: NavigationQuestionScores[]): NavigationSummary {
  const sum = (pick: (p: PassageCounts) => number) => per.reduce((total, p) => total + pick(p.passages), 0);
  return {
    questions: per.length,
    answerInPassage: sum((p) => p.held) / Math.max(1, sum((p) => p.pages)),
    bookAnswerInPassage: sum((p) => p.bookHeld) / Math.max(1, sum((p) => p.bookPages)),
    navTop1: share(per.map((p) => p.navTop1)),
    navTop3: share(per.map((p) => p.navTop3)),
    navAboveAnswer: share(per.map((p) => p.navAboveAnswer)),
    ndcg10: mean(per.map((p) => p.ndcg10)),
    recall10: mean(per.map((p) => p.recall10)),
    mrr10: mean(per.map((p) => p.mrr10)),
  };
}
