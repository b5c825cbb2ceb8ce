/**
 * The quality part of the benchmark report: the model banner, our table by
 * set, weight and half, the peers beside us, all of scifact against
 * published figures, the navigation-page questions, and the quality targets.
 */
import type { PeerQuality } from "./peers/peer-quality.ts";
import { BEIR_SCIFACT_DOCS, BEIR_SCIFACT_REFERENCES, type BeirFigures } from "./sections/beir-scifact.ts";
import type { QualityBanner, QualityFigures } from "./sections/quality-section.ts";
import { isBaseline, type HalfScores, type QualityRow, type Scores } from "./sections/quality.ts";
import { renderNavigation } from "./report-navigation.ts";
import { markdownTable as table } from "./lib/markdown-table.ts";
import { fmt } from "./lib/stats.ts";
import { pairedDifference, type PairedDifference } from "./lib/paired-bootstrap.ts";
import { halfOf } from "./lib/quality-sets.ts";

export type Target = [name: string, measured: string, ok: boolean | null];

/** The weight our product ranks with unless RAG_HYBRID_WEIGHT says otherwise (both peers default to it too). */
export const DEFAULT_WEIGHT = 0.6;
const WEIGHT_NAMES: Record<number, string> = { 0: "vector only (w = 0)", 0.6: "default hybrid (w = 0.6)", 1: "keyword only (w = 1)" };
type Metric = keyof Omit<Scores, "queries">;
const cell = (row: HalfScores, metric: Metric) => `${fmt(row.all[metric], 3)} (${fmt(row.A[metric], 3)} / ${fmt(row.B[metric], 3)})`;
const questions = (row: HalfScores) => `${row.all.queries} (${row.A.queries} / ${row.B.queries})`;
const OURS = "minirag-mcp (this)";

function banner(model: QualityBanner): string {
  if (!model.real)
    return `> **No real embedding model here** (MINIRAG_BENCH_MODEL unset and no ../shared/models/multilingual-e5-small-int8): the index uses ${model.name}, so only keyword rows (w = 1) are shown. Vector and hybrid rows would be noise, and the peers are not run.`;
  const prefixes = model.prefixes ? `; our prefixes: ${model.prefixes}` : "";
  return `> **Figures made with the model ${model.name}** (${model.dir}, model.onnx sha256 ${model.fingerprint}…${prefixes}). They are this model's, not those of the default model's pinned files (Xenova/multilingual-e5-small at 761b726d).`;
}

/** Our rows for every set and weight. */
function renderOurs(q: QualityFigures): string[] {
  if (q.rows.length === 0) return [];
  const out = ["## Retrieval quality (document level)", banner(q.banner)];
  out.push(
    "Each cell: all questions (half A / half B). The halves are fixed by sha256 of the question id; anything tuned was tuned on half A only. " +
      "scifact: every judged abstract plus distractors up to 1,000; xquad ru→en: the Russian questions over the English paragraphs (scripts/bench/lib/quality-sets.ts). " +
      "A question's ranking is the documents of the tool's hits (up to 100) in order of each document's first hit.",
  );
  out.push(table(["set", "ranking", "questions (A / B)", "nDCG@10", "Recall@10", "MRR@10"], q.rows.map((r) => [r.set, r.fusion ? `baseline: rank fusion, RAG_FUSION=rrf (w = ${r.weight})` : r.documentVectors === false ? `baseline: no document vectors (w = ${r.weight})` : (WEIGHT_NAMES[r.weight] ?? `w = ${r.weight}`), questions(r), cell(r, "ndcg10"), cell(r, "recall10"), cell(r, "mrr10")])));
  const chunks = Object.entries(q.chunks).map(([key, n]) => `${key} ${n}`);
  if (chunks.length) out.push(`Our chunks per index: ${chunks.join(", ")}.`);
  if (q.quick) out.push("A --quick slice: with so few questions per half, one question moves a figure by several points, so the targets below are a smoke test, not a verdict.");
  return out;
}

/** Ours at the default weight beside each peer's default, per set. */
function renderPeers(q: QualityFigures): string[] {
  if (q.peers.length === 0) return [];
  const ours = q.rows.filter((r) => r.weight === DEFAULT_WEIGHT && !isBaseline(r));
  const rows: (string | number)[][] = [];
  for (const o of ours) {
    rows.push([o.set, OURS, questions(o), cell(o, "ndcg10"), cell(o, "recall10"), cell(o, "mrr10")]);
    for (const p of q.peers) {
      const r = p.rows.find((x) => x.set === o.set);
      rows.push(r ? [o.set, p.tool, questions(r), cell(r, "ndcg10"), cell(r, "recall10"), cell(r, "mrr10")] : [o.set, p.tool, "did not run", "", "", ""]);
    }
  }
  const out = ["## Retrieval quality beside the peers (same sets, same model files, same run)"];
  out.push("Each tool at its default settings (hybrid, weight 0.6 for all three), its own chunking, indexing and query path; each cell all questions (half A / half B), each question's documents ranked by their first hit among the tool's 100 hits.");
  out.push(table(["set", "tool", "questions (A / B)", "nDCG@10", "Recall@10", "MRR@10"], rows));
  out.push(`How each tool was given the model folder ${q.banner.dir}:`);
  out.push(
    [
      `- ${OURS}: MODEL_NAME set to the folder; the product's profile for it applies (prefixes: ${q.banner.prefixes}; mean pooling; chunks of ${q.banner.chunkTokens} tokens); everything else at defaults. Indexed and asked in process through runSync and queryDocuments, the product's own path, topK 100.`,
      ...q.peers.map((p) => `- ${p.tool}: ${p.setup}${chunkNote(p)}`),
    ].join("\n"),
  );
  const failures = q.peers.flatMap((p) => p.failures.map((f) => `- ${p.tool}: ${f}`));
  if (failures.length) out.push(`Not measured:\n${failures.join("\n")}`);
  return [...out, ...renderDifferences(ours, q.peers)];
}

/** Ours minus a peer over one half's questions (nDCG@10), when both runs kept each question's score. */
function halfDifference(ours: HalfScores, theirs: HalfScores | undefined, half: "A" | "B"): PairedDifference | undefined {
  if (!ours.byQuestion || !theirs?.byQuestion) return undefined;
  return pairedDifference(ours.byQuestion, theirs.byQuestion, Object.keys(ours.byQuestion).filter((id) => halfOf(id) === half));
}

const signed = (n: number) => `${n >= 0 ? "+" : "\u2212"}${fmt(Math.abs(n), 3)}`;
const interval = (d: PairedDifference | undefined) => (d ? `${signed(d.mean)} (${signed(d.low)} to ${signed(d.high)})` : "n/a");

/** How sure each gap is: ours minus each peer per half, with its 95% paired bootstrap interval (lib/paired-bootstrap.ts). */
function renderDifferences(ours: QualityRow[], peers: PeerQuality[]): string[] {
  const rows = ours.flatMap((o) =>
    peers.map((p) => {
      const theirs = p.rows.find((x) => x.set === o.set);
      return [o.set, p.tool, interval(halfDifference(o, theirs, "A")), interval(halfDifference(o, theirs, "B"))];
    }),
  );
  if (!rows.some((r) => r[2] !== "n/a" || r[3] !== "n/a")) return [];
  return [
    "Ours minus each peer, nDCG@10 over the same questions, with the 95% interval of a paired bootstrap (10,000 draws, seeded): an interval that spans 0 is a gap these questions cannot tell from chance.",
    table(["set", "peer", "half A", "half B"], rows),
  ];
}

const chunkNote = (p: PeerQuality) => {
  const counts = Object.entries(p.chunks).map(([key, n]) => `${key} ${n}`);
  return counts.length ? ` Chunks per index: ${counts.join(", ")}.` : "";
};

function renderBeir(beir: BeirFigures): string[] {
  const whole = beir.docs === BEIR_SCIFACT_DOCS ? `all ${beir.docs} abstracts, BEIR's whole corpus` : `${beir.docs} abstracts: ../shared/corpus/scifact holds only part of BEIR's ${BEIR_SCIFACT_DOCS}, so these figures are not BEIR's setting`;
  const ref = BEIR_SCIFACT_REFERENCES;
  const published: Record<number, string> = { 0: `multilingual-e5-small dense ${ref.e5SmallDense}`, [DEFAULT_WEIGHT]: `target ${ref.hybridTarget}`, 1: `BM25 ${ref.bm25} (BEIR)` };
  return [
    `## scifact, ${whole} (${beir.chunks} chunks)`,
    "300 questions; each cell all (half A / half B). Published nDCG@10 beside ours; cross-encoders reranking BM25's top 100 reach 0.688-0.750.",
    table(
      ["ranking", "nDCG@10", "published / target nDCG@10", "Recall@10", "MRR@10"],
      beir.rows.map((r) => [
        r.documentVectors === false ? `baseline: ${WEIGHT_NAMES[r.weight] ?? `w = ${r.weight}`}, no document vectors` : (WEIGHT_NAMES[r.weight] ?? `w = ${r.weight}`),
        cell(r, "ndcg10"),
        isBaseline(r) ? "" : (published[r.weight] ?? ""),
        cell(r, "recall10"),
        cell(r, "mrr10"),
      ]),
    ),
  ];
}

/** Every section this run measured. */
export function renderQuality(q: QualityFigures): string[] {
  return [...renderOurs(q), ...renderPeers(q), ...(q.beir ? renderBeir(q.beir) : []), ...(q.navigation ? renderNavigation(q.navigation) : [])];
}

/** Whether ours is the best on a set, in each half (nDCG@10 at least each peer's: at a perfect 1.000 nobody can be ahead). */
function peerTargets(q: QualityFigures): Target[] {
  if (q.peers.length === 0) return [];
  return q.rows
    .filter((r) => r.weight === DEFAULT_WEIGHT && !isBaseline(r))
    .map((o) => {
      const theirs = q.peers.map((p) => p.rows.find((x) => x.set === o.set));
      const measured = `A ${fmt(o.A.ndcg10, 3)} vs ${theirs.map((t) => (t ? fmt(t.A.ndcg10, 3) : "n/a")).join(" / ")}, B ${fmt(o.B.ndcg10, 3)} vs ${theirs.map((t) => (t ? fmt(t.B.ndcg10, 3) : "n/a")).join(" / ")}`;
      const ok = theirs.some((t) => !t) ? null : theirs.every((t) => o.A.ndcg10 >= t!.A.ndcg10 && o.B.ndcg10 >= t!.B.ndcg10);
      return [`${o.set}: ours best, >= ${q.peers.map((p) => p.tool).join(" and ")} (nDCG@10, both halves)`, measured, ok];
    });
}

function beirTargets(beir: BeirFigures | undefined): Target[] {
  const ref = BEIR_SCIFACT_REFERENCES;
  const at = (w: number) => beir?.rows.find((r) => r.weight === w && !isBaseline(r));
  const row = (name: string, r: QualityRow | undefined, bar: number): Target => [name, r ? fmt(r.all.ndcg10, 3) : "n/a", r ? r.all.ndcg10 >= bar : null];
  return [
    row(`all of scifact, keyword only nDCG@10 >= ${ref.bm25} (BEIR's BM25)`, at(1), ref.bm25),
    row(`all of scifact, vector only nDCG@10 >= ${ref.e5SmallDense} (e5-small's published dense figure)`, at(0), ref.e5SmallDense),
    row(`all of scifact, default hybrid nDCG@10 >= ${ref.hybridTarget}`, at(DEFAULT_WEIGHT), ref.hybridTarget),
  ];
}

/** Target rows: keyword-only xquad-ru >= 0.93; on every set hybrid >= vector only and the best of the three tools, in each half; all of scifact against published figures. */
export function qualityTargets(q: QualityFigures): Target[] {
  const at = (set: string, weight: number) => q.rows.find((r) => r.set === set && r.weight === weight && !isBaseline(r));
  const ru = at("xquad-ru", 1);
  const targets: Target[] = [["keyword only, xquad-ru nDCG@10 >= 0.93", ru ? `${fmt(ru.all.ndcg10, 3)} (${fmt(ru.A.ndcg10, 3)} / ${fmt(ru.B.ndcg10, 3)})` : "n/a", ru ? ru.all.ndcg10 >= 0.93 : null]];
  for (const set of [...new Set(q.rows.map((r) => r.set))]) {
    const hybrid = at(set, DEFAULT_WEIGHT);
    const vector = at(set, 0);
    if (!hybrid || !vector) continue;
    const ok = hybrid.A.ndcg10 >= vector.A.ndcg10 && hybrid.B.ndcg10 >= vector.B.ndcg10;
    targets.push([`${set}: hybrid >= vector only (nDCG@10, both halves)`, `A ${fmt(hybrid.A.ndcg10, 3)} vs ${fmt(vector.A.ndcg10, 3)}, B ${fmt(hybrid.B.ndcg10, 3)} vs ${fmt(vector.B.ndcg10, 3)}`, ok]);
    const rrf = q.rows.find((r) => r.set === set && r.fusion === "rrf");
    if (rrf) {
      const ahead = hybrid.A.ndcg10 >= rrf.A.ndcg10 && hybrid.B.ndcg10 >= rrf.B.ndcg10;
      targets.push([`${set}: relative fusion >= rank fusion (nDCG@10, both halves)`, `A ${fmt(hybrid.A.ndcg10, 3)} vs ${fmt(rrf.A.ndcg10, 3)}, B ${fmt(hybrid.B.ndcg10, 3)} vs ${fmt(rrf.B.ndcg10, 3)}`, ahead]);
    }
    const flat = q.rows.find((r) => r.set === set && r.documentVectors === false);
    if (flat) {
      const ahead = hybrid.A.ndcg10 >= flat.A.ndcg10 && hybrid.B.ndcg10 >= flat.B.ndcg10;
      targets.push([`${set}: with document vectors >= without (nDCG@10, both halves)`, `A ${fmt(hybrid.A.ndcg10, 3)} vs ${fmt(flat.A.ndcg10, 3)}, B ${fmt(hybrid.B.ndcg10, 3)} vs ${fmt(flat.B.ndcg10, 3)}`, ahead]);
    }
  }
  return [...targets, ...peerTargets(q), ...beirTargets(q.beir)];
}

/** The report of `bun run bench --quality` (or --beir, --navigation): the quality sections this run measured and their targets. */
export function renderQualityReport(figures: QualityFigures, minutes: number): string {
  const verdict = (ok: boolean | null) => (ok === null ? "not measured" : ok ? "met" : "NOT met");
  const out = [`# minirag-mcp retrieval quality${figures.quick ? " (--quick)" : ""}`, `${new Date().toISOString().slice(0, 10)}. Took ${fmt(minutes)} min.`];
  if (figures.rows.length === 0) out.push(banner(figures.banner));
  out.push(...renderQuality(figures), "## Targets", table(["target", "measured", "verdict"], qualityTargets(figures).map(([name, value, ok]) => [name, value, verdict(ok)])));
  return `${out.join("\n\n")}\n`;
}
