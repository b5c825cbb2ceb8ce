/** The quality report's peer table, all-of-scifact rows and targets (scripts/bench/report-quality.ts), from made-up figures. */
import { describe, expect, test } from "bun:test";
import type { PeerQuality } from "../../scripts/bench/peers/peer-quality.ts";
import { qualityTargets, renderQualityReport } from "../../scripts/bench/report-quality.ts";
import type { BeirFigures } from "../../scripts/bench/sections/beir-scifact.ts";
import type { QualityFigures } from "../../scripts/bench/sections/quality-section.ts";
import type { HalfScores, QualityRow } from "../../scripts/bench/sections/quality.ts";

const scores = (all: number, a: number, b: number): HalfScores => ({
  all: { queries: 10, ndcg10: all, recall10: all, mrr10: all },
  A: { queries: 5, ndcg10: a, recall10: a, mrr10: a },
  B: { queries: 5, ndcg10: b, recall10: b, mrr10: b },
});
const row = (set: string, weight: number, s: HalfScores): QualityRow => ({ set, weight, ...s });
const peer = (tool: string, rows: [string, HalfScores][], failures: string[] = []): PeerQuality => ({ tool, setup: `${tool} setup.`, rows: rows.map(([set, s]) => ({ set, ...s })), chunks: { "xquad-en": 240 }, failures });

const figures = (peers: PeerQuality[], beir?: BeirFigures): QualityFigures => ({
  quick: false,
  rows: [row("xquad-en", 0, scores(0.95, 0.95, 0.95)), row("xquad-en", 0.6, scores(0.97, 0.96, 0.98)), row("scifact", 0.6, scores(0.83, 0.84, 0.82))],
  banner: { name: "e5", dir: "/models/e5", real: true, fingerprint: "abc", prefixes: '"query: " before queries', chunkTokens: 200 },
  chunks: { "xquad-en": 300 },
  peers,
  ...(beir && { beir }),
});

describe("beside the peers", () => {
  const report = renderQualityReport(
    figures([peer("local-rag", [["xquad-en", scores(0.98, 0.95, 0.99)], ["scifact", scores(0.8, 0.8, 0.8)]]), peer("python", [["xquad-en", scores(0.9, 0.9, 0.9)]], ["scifact: ingest exited 1: boom"])]),
    1,
  );

  test("each set has our default-hybrid row and one row per peer, a peer without figures saying so", () => {
    expect(report).toContain("| xquad-en | minirag-mcp (this) | 10 (5 / 5) | 0.970 (0.960 / 0.980) |");
    expect(report).toContain("| xquad-en | local-rag | 10 (5 / 5) | 0.980 (0.950 / 0.990) |");
    expect(report).toContain("| scifact | python | did not run |");
    expect(report).toContain("- python: scifact: ingest exited 1: boom");
  });

  test("each tool's configuration is stated, ours with its prefixes and chunk size", () => {
    expect(report).toContain('prefixes: "query: " before queries; mean pooling; chunks of 200 tokens');
    expect(report).toContain("- local-rag: local-rag setup. Chunks per index: xquad-en 240.");
  });

  test("best of the three needs both halves: a peer ahead in one half fails the set, a peer without figures leaves it unmeasured", () => {
    const targets = qualityTargets(figures([peer("local-rag", [["xquad-en", scores(0.98, 0.95, 0.99)], ["scifact", scores(0.8, 0.8, 0.8)]]), peer("python", [["xquad-en", scores(0.9, 0.9, 0.9)]])]));
    const ahead = (set: string) => targets.find(([name]) => name.startsWith(`${set}: ours best`));
    expect(ahead("xquad-en")).toEqual(["xquad-en: ours best, >= local-rag and python (nDCG@10, both halves)", "A 0.960 vs 0.950 / 0.900, B 0.980 vs 0.990 / 0.900", false]);
    expect(ahead("scifact")![2]).toBeNull();
  });

  test("at least every peer's figure in both halves meets the target, a tie at the ceiling included", () => {
    const best = (theirs: HalfScores) => qualityTargets(figures([peer("local-rag", [["xquad-en", theirs]])])).find(([name]) => name.startsWith("xquad-en: ours best"))![2];
    expect(best(scores(0.9, 0.9, 0.9))).toBe(true);
    expect(best(scores(0.97, 0.96, 0.98))).toBe(true);
  });
});

describe("how sure each gap is", () => {
  const ids = ["a1", "a2", "a3", "b1", "b2", "b3"];
  const byQuestion = (f: (id: string) => number) => Object.fromEntries(ids.map((id) => [id, f(id)]));

  test("with each question's score on both sides, ours minus the peer per half with its interval; a peer run without them says n/a", () => {
    const ours = { ...scores(0.9, 0.9, 0.9), byQuestion: byQuestion(() => 0.9) };
    const local = { ...scores(0.8, 0.8, 0.8), byQuestion: byQuestion(() => 0.8) };
    const figs = figures([peer("local-rag", [["xquad-en", local]]), peer("python", [["xquad-en", scores(0.9, 0.9, 0.9)]])]);
    figs.rows[1] = { ...figs.rows[1]!, ...ours };
    const report = renderQualityReport(figs, 1);
    expect(report).toContain("Ours minus each peer, nDCG@10 over the same questions");
    expect(report).toContain("| xquad-en | local-rag | +0.100 (+0.100 to +0.100) | +0.100 (+0.100 to +0.100) |");
    expect(report).toContain("| xquad-en | python | n/a | n/a |");
  });

  test("no question scores anywhere (figures saved before they were kept): no table", () => {
    expect(renderQualityReport(figures([peer("local-rag", [["xquad-en", scores(0.98, 0.95, 0.99)]])]), 1)).not.toContain("Ours minus each peer");
  });
});

describe("all of scifact", () => {
  const beir = (docs: number): BeirFigures => ({ docs, chunks: 9000, rows: [row("scifact", 0, scores(0.68, 0.7, 0.66)), row("scifact", 0.6, scores(0.7, 0.7, 0.7)), row("scifact", 1, scores(0.66, 0.66, 0.66))] });

  test("each ranking is printed beside its published figure and checked against it", () => {
    const report = renderQualityReport(figures([], beir(5183)), 1);
    expect(report).toContain("## scifact, all 5183 abstracts, BEIR's whole corpus (9000 chunks)");
    expect(report).toContain("| vector only (w = 0) | 0.680 (0.700 / 0.660) | multilingual-e5-small dense 0.676 |");
    expect(report).toContain("| default hybrid (w = 0.6) | 0.700 (0.700 / 0.700) | target 0.75 |");
    const verdicts = qualityTargets(figures([], beir(5183))).filter(([name]) => name.startsWith("all of scifact")).map(([, , ok]) => ok);
    expect(verdicts).toEqual([false, true, false]);
  });

  test("the vector-only baseline without document vectors is printed as such and checked against nothing", () => {
    const figs = beir(5183);
    figs.rows.push({ ...row("scifact", 0, scores(0.6, 0.6, 0.6)), documentVectors: false });
    const report = renderQualityReport(figures([], figs), 1);
    expect(report).toContain("| baseline: vector only (w = 0), no document vectors | 0.600 (0.600 / 0.600) |  |");
    const verdicts = qualityTargets(figures([], figs)).filter(([name]) => name.startsWith("all of scifact")).map(([, m]) => m);
    expect(verdicts).toEqual(["0.660", "0.680", "0.700"]);
  });

  test("a corpus with fewer abstracts than BEIR's says the figures are not BEIR's setting", () => {
    expect(renderQualityReport(figures([], beir(1000)), 1)).toContain("1000 abstracts: ../shared/corpus/scifact holds only part of BEIR's 5183, so these figures are not BEIR's setting");
  });

  test("without the all-of-scifact run its targets are not measured", () => {
    expect(qualityTargets(figures([])).filter(([name]) => name.startsWith("all of scifact")).map(([, , ok]) => ok)).toEqual([null, null, null]);
  });
});

describe("the rank-fusion baseline", () => {
  const withBaseline = (baseline: HalfScores): QualityFigures => {
    const f = figures([]);
    return { ...f, rows: [...f.rows, { ...row("xquad-en", 0.6, baseline), fusion: "rrf" }] };
  };

  test("is printed as its own row and never stands in for our default hybrid", () => {
    const report = renderQualityReport(withBaseline(scores(0.99, 0.99, 0.99)), 1);
    expect(report).toContain("| xquad-en | baseline: rank fusion, RAG_FUSION=rrf (w = 0.6) | 10 (5 / 5) | 0.990 (0.990 / 0.990) |");
    const hybrid = qualityTargets(withBaseline(scores(0.99, 0.99, 0.99))).find(([name]) => name.startsWith("xquad-en: hybrid >= vector only"))!;
    expect(hybrid[1]).toBe("A 0.960 vs 0.950, B 0.980 vs 0.950");
  });

  test("relative fusion must be at least the baseline in both halves", () => {
    const verdict = (baseline: HalfScores) => qualityTargets(withBaseline(baseline)).find(([name]) => name.startsWith("xquad-en: relative fusion >= rank fusion"))!;
    expect(verdict(scores(0.95, 0.95, 0.95))).toEqual(["xquad-en: relative fusion >= rank fusion (nDCG@10, both halves)", "A 0.960 vs 0.950, B 0.980 vs 0.950", true]);
    expect(verdict(scores(0.97, 0.97, 0.97))[2]).toBe(false);
    // Without a baseline row (a run with the tiny model) there is no such target.
    expect(qualityTargets(figures([])).some(([name]) => name.includes("relative fusion"))).toBe(false);
  });
});
