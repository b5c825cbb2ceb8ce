/** The navigation-page section of the quality report (sections/navigation.ts). */
import { markdownTable } from "./lib/markdown-table.ts";
import { fmt } from "./lib/stats.ts";
import { NAVIGATION_FOLDER, type NavigationFigures } from "./sections/navigation.ts";

const WEIGHT_NAMES: Record<number, string> = { 0: "vector only (w = 0)", 0.6: "default hybrid (w = 0.6)", 1: "keyword only (w = 1)" };
const pct = (share: number) => `${fmt(share * 100, 0)}%`;

export function renderNavigation(nav: NavigationFigures): string[] {
  const head = ["ranking", "questions", "ToC page 1st", "ToC page in top 3", "ToC page above the answer", "nDCG@10", "Recall@10", "MRR@10", "answer in the first passage", "the same, books"];
  const rows: string[][] = [];
  for (const r of nav.rows) {
    for (const [label, s] of [["all", r.all], ["en", r.en], ["ru", r.ru]] as const) {
      rows.push([`${WEIGHT_NAMES[r.weight] ?? `w = ${r.weight}`}, ${label}`, String(s.questions), pct(s.navTop1), pct(s.navTop3), pct(s.navAboveAnswer), fmt(s.ndcg10, 3), fmt(s.recall10, 3), fmt(s.mrr10, 3), pct(s.answerInPassage), pct(s.bookAnswerInPassage)]);
    }
  }
  return [
    `## Navigation pages against content pages (${NAVIGATION_FOLDER}: ${nav.documents} documents, ${nav.chunks} chunks)`,
    `Questions whose answers are on content pages (scripts/bench/navigation-judgments.json, English and Russian, each judged page with a quote checked against the indexed text). ToC pages: ${nav.navigationPages.map((p) => p.split("/").slice(-4).join("/")).join(", ")}. ` +
      "\"ToC page 1st / in top 3\": share of questions where one of them took that place; \"above the answer\": a ToC page ranked above the first answering page, or in the top 10 without one. nDCG@10, Recall@10 and MRR@10 over the content pages' judgments (the answering chapter page 2, any other page holding the answer in the question's language 1). " +
      "\"Answer in the first passage\": of the answering pages among the hits, the share whose first hit came back in a section holding the judged quote (a book found by its contents or by a heading alone does not); \"books\": the whole books in TXT, PDF and EPUB alone.",
    markdownTable(head, rows),
  ];
}
