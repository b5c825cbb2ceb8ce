/** The quality part of the benchmark report: the model banner, the table by set, weight and half, and the quality targets. */
import type { QualityRow, Scores } from "./sections/quality.ts";
import type { QualityFigures } from "./sections/quality-section.ts";
import { fmt } from "./lib/stats.ts";

export interface QualityBanner {
  name: string;
  dir: string;
  real: boolean;
  fingerprint: string;
  prefixes: string;
}

const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

const WEIGHT_NAMES: Record<number, string> = { 0: "vector only (w = 0)", 0.6: "default hybrid (w = 0.6)", 1: "keyword only (w = 1)" };
const cell = (row: QualityRow, metric: keyof Omit<Scores, "queries">) => `${fmt(row.all[metric], 3)} (${fmt(row.A[metric], 3)} / ${fmt(row.B[metric], 3)})`;

export function renderQuality(rows: QualityRow[], model: QualityBanner, scifactBm25: Scores | undefined): string[] {
  const out: string[] = [];
  out.push("## Retrieval quality (document level)");
  out.push(
    model.real
      ? `> **Figures made with the model ${model.name}** (${model.dir}, model.onnx sha256 ${model.fingerprint}…; prefixes: ${model.prefixes}). They are this model's, not those of the default model's pinned files (Xenova/multilingual-e5-small at 761b726d).`
      : `> **No real embedding model here** (MINIRAG_BENCH_MODEL unset and no ../shared/models/multilingual-e5-small-int8): the index uses ${model.name}, so only keyword rows (w = 1) are shown. Vector and hybrid rows would be noise.`,
  );
  out.push(
    "Each cell: all questions (half A / half B). The halves are fixed by sha256 of the question id; anything tuned was tuned on half A only. " +
      "scifact: every judged abstract plus distractors up to 1,000; xquad ru→en: the Russian questions over the English paragraphs (scripts/bench/lib/quality-sets.ts).",
  );
  out.push(
    table(
      ["set", "ranking", "questions (A / B)", "nDCG@10", "Recall@10", "MRR@10"],
      rows.map((r) => [r.set, WEIGHT_NAMES[r.weight] ?? `w = ${r.weight}`, `${r.all.queries} (${r.A.queries} / ${r.B.queries})`, cell(r, "ndcg10"), cell(r, "recall10"), cell(r, "mrr10")]),
    ),
  );
  if (rows.some((r) => Math.min(r.A.queries, r.B.queries) < 100)) out.push("A --quick slice: with so few questions per half, one question moves a figure by several points, so the targets below are a smoke test, not a verdict.");
  if (scifactBm25) out.push(`Keyword search alone over all 5,183 scifact abstracts (BEIR's setting; published BM25 nDCG@10 0.665): nDCG@10 ${fmt(scifactBm25.ndcg10, 3)}, Recall@10 ${fmt(scifactBm25.recall10, 3)}, MRR@10 ${fmt(scifactBm25.mrr10, 3)}.`);
  return out;
}

/** Target rows: keyword-only xquad-ru >= 0.93, and on every set hybrid >= vector only, in each half. */
export function qualityTargets(rows: QualityRow[]): [string, string, boolean | null][] {
  const at = (set: string, weight: number) => rows.find((r) => r.set === set && r.weight === weight);
  const ru = at("xquad-ru", 1);
  const targets: [string, string, boolean | null][] = [["keyword only, xquad-ru nDCG@10 >= 0.93", ru ? `${fmt(ru.all.ndcg10, 3)} (${fmt(ru.A.ndcg10, 3)} / ${fmt(ru.B.ndcg10, 3)})` : "n/a", ru ? ru.all.ndcg10 >= 0.93 : null]];
  for (const set of [...new Set(rows.map((r) => r.set))]) {
    const hybrid = at(set, 0.6);
    const vector = at(set, 0);
    if (!hybrid || !vector) continue;
    const ok = hybrid.A.ndcg10 >= vector.A.ndcg10 && hybrid.B.ndcg10 >= vector.B.ndcg10;
    targets.push([`${set}: hybrid >= vector only (nDCG@10, both halves)`, `A ${fmt(hybrid.A.ndcg10, 3)} vs ${fmt(vector.A.ndcg10, 3)}, B ${fmt(hybrid.B.ndcg10, 3)} vs ${fmt(vector.B.ndcg10, 3)}`, ok]);
  }
  return targets;
}

/** The report of `bun run bench --quality`: the quality section and its targets alone. */
export function renderQualityReport(figures: QualityFigures, quick: boolean, minutes: number): string {
  const verdict = (ok: boolean | null) => (ok === null ? "not measured" : ok ? "met" : "NOT met");
  const targets = [["target", "measured", "verdict"].join(" | "), "---|---|---", ...qualityTargets(figures.rows).map(([name, value, ok]) => [name, value, verdict(ok)].join(" | "))];
  const out = [`# minirag-mcp retrieval quality${quick ? " (--quick)" : ""}`, `${new Date().toISOString().slice(0, 10)}. Took ${fmt(minutes)} min.`];
  out.push(...renderQuality(figures.rows, figures.banner, figures.scifactBm25), "## Targets", targets.map((line) => `| ${line} |`).join("\n"));
  return `${out.join("\n\n")}\n`;
}
