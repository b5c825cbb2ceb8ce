/**
 * Scores for the navigation-page measurement: whether a table-of-contents
 * page took the first place or one of the first three, whether it ranked
 * above every page that answers, and nDCG@10, Recall@10 and MRR@10 over the
 * content pages' graded judgments (navigation pages are judged 0).
 */
import { mean } from "./stats.ts";
import { mrrAt, ndcgAt, recallAt, type Judgments } from "./ir-metrics.ts";

export interface NavigationQuestionScores {
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
  navTop1: number;
  navTop3: number;
  navAboveAnswer: number;
  ndcg10: number;
  recall10: number;
  mrr10: number;
}

/** One question's scores for a ranked list of documents. */
export function scoreNavigation(ranked: string[], navigation: ReadonlySet<string>, answers: Judgments): NavigationQuestionScores {
  const top10 = ranked.slice(0, 10);
  const firstNav = top10.findIndex((d) => navigation.has(d));
  const firstAnswer = top10.findIndex((d) => (answers.get(d) ?? 0) > 0);
  return {
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
  return {
    questions: per.length,
    navTop1: share(per.map((p) => p.navTop1)),
    navTop3: share(per.map((p) => p.navTop3)),
    navAboveAnswer: share(per.map((p) => p.navAboveAnswer)),
    ndcg10: mean(per.map((p) => p.ndcg10)),
    recall10: mean(per.map((p) => p.recall10)),
    mrr10: mean(per.map((p) => p.mrr10)),
  };
}
