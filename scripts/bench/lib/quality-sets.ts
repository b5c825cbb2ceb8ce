/**
 * The question sets of the quality section, each cut to a fixed document set
 * and split into two fixed halves.
 *
 * - scifact: every judged document (283) plus distractors up to 1,000
 *   documents, the distractors being the unjudged files with the smallest
 *   sha256 of their file name: a fixed sample that no query chose.
 * - xquad-en, xquad-ru: all 240 paragraphs.
 * - xquad ru→en: xquad-ru's questions over xquad-en's paragraphs. The Russian
 *   questions are translations of the English ones, with the same ids and the
 *   same paragraph file names (qrels.tsv of both sets agree line for line), so
 *   xquad-en's judgments serve.
 *
 * Halves: a question is in half A when the first byte of sha256(question id)
 * is even, else in half B (xquad 579 / 611, scifact 167 / 133). Anything
 * tuned is tuned on half A only; B is the held-out check.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { loadSet, type RetrievalSet } from "./datasets.ts";

export type Half = "A" | "B";

export interface QualitySet extends RetrievalSet {
  /** The set whose paragraphs are indexed: sets with the same key and docs share one index. */
  indexKey: string;
}

export interface SetPlan {
  /** Questions per half (Infinity for all). */
  perHalf: number;
  /** Documents for scifact; xquad sets keep all 240 unless perHalf cuts them. */
  scifactDocs: number;
  /** In a slice (--quick): documents of xquad, judged ones first. */
  xquadDocs: number;
}

export const FULL: SetPlan = { perHalf: Infinity, scifactDocs: 1000, xquadDocs: 240 };
export const QUICK: SetPlan = { perHalf: 15, scifactDocs: 150, xquadDocs: 60 };

const sha = (text: string) => createHash("sha256").update(text).digest();

export function halfOf(questionId: string): Half {
  return (sha(questionId)[0]! & 1) === 0 ? "A" : "B";
}

/** The first n questions of each half, in file order. */
function sliceHalves(set: RetrievalSet, perHalf: number): RetrievalSet["queries"] {
  const taken = { A: 0, B: 0 };
  return set.queries.filter((q) => taken[halfOf(q.id)]++ < perHalf);
}

/** The documents judged for the kept questions, then distractors by sha256 of the file name, up to `total`. */
function cutDocuments(set: RetrievalSet, queries: RetrievalSet["queries"], total: number): RetrievalSet {
  const judged = new Set(queries.flatMap((q) => [...set.qrels.get(q.id)!.keys()]));
  const others = set.docs.filter((d) => !judged.has(d)).sort((a, b) => Buffer.compare(sha(basename(a)), sha(basename(b))));
  const docs = [...judged, ...others.slice(0, Math.max(0, total - judged.size))].sort();
  return { ...set, docs, queries };
}

/** The four question sets of the quality table, cut by the plan. */
export function qualitySets(plan: SetPlan): QualitySet[] {
  const scifact = loadSet("scifact");
  const en = loadSet("xquad-en");
  const ru = loadSet("xquad-ru");
  const cut = (set: RetrievalSet, docs: number) => cutDocuments(set, sliceHalves(set, plan.perHalf), docs);
  const enCut = cut(en, plan.xquadDocs);
  // The same question ids as enCut, so the same paragraphs: the cross-lingual set reuses xquad-en's index.
  const crossQueries = ru.queries.filter((q) => enCut.queries.some((e) => e.id === q.id));
  return [
    { ...enCut, indexKey: "xquad-en" },
    { ...enCut, name: "xquad ru→en", queries: crossQueries, indexKey: "xquad-en" },
    { ...cut(ru, plan.xquadDocs), indexKey: "xquad-ru" },
    { ...cut(scifact, plan.scifactDocs), indexKey: "scifact" },
  ];
}
