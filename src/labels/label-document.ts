/**
 * Every facet and the date of one document, from its text as stored. Ingest
 * and sync's re-labelling both call this with the same text (the document
 * rebuilt from its chunks), so a re-label gives what an ingest would.
 */
import { basename, isAbsolute, relative } from "node:path";
import { plainName } from "../native/file-names.ts";
import { isInside } from "../scan/containment.ts";
import { documentDate, type DateSource } from "./document-date.ts";
import { calibrate, type LabelScorer } from "./label-scorer.ts";
import { resolveFacet, type Label } from "./resolve-facet.ts";
import type { Taxonomy } from "./taxonomy.ts";

/** How much of the document the model reads: its first part, where form shows. */
export const MODEL_TEXT_CHARS = 2000;

export type { DateSource };

/** What a document carries: written to its chunk-0 row (store/label-rows.ts). */
export interface DocumentLabels {
  /** The taxonomy these labels were resolved under; sync re-labels when it differs. */
  hash: string;
  labels: Record<string, Label>;
  /** Facets the model could not answer (or confirm), with why: sync asks again. */
  problems: Record<string, string>;
  date: string | null;
  dateSource: DateSource | null;
}

export interface LabelInput {
  source: string;
  sourceType: "file" | "data" | "url";
  text: string;
  /** The file's time; files only. */
  mtimeMs?: number;
}

/** The path of a file source relative to the root holding it (NFC), or null for text and URL documents. */
export function rootRelative(source: string, sourceType: LabelInput["sourceType"], roots: string[]): string | null {
  if (sourceType !== "file") return null;
  // A shared index's source is already `<root name>/<path inside the root>` (scan/source-names.ts).
  if (!isAbsolute(source)) return source.includes("/") ? source.slice(source.indexOf("/") + 1).normalize("NFC") : null;
  const root = roots.find((r) => isInside(source, r));
  return root ? relative(root, source).split("\\").join("/").normalize("NFC") : null;
}

/** Sees each model answer: the facet and its calibrated probabilities over the facet's values (classify try prints them). */
export type DistributionListener = (facetId: string, probabilities: number[]) => void;

/** Labels one document; `scorer` is asked for only when a facet needs the model, and may throw. */
export async function labelDocument(taxonomy: Taxonomy, doc: LabelInput, roots: string[], scorer: () => Promise<LabelScorer>, onDistribution?: DistributionListener): Promise<DocumentLabels> {
  const relPath = rootRelative(doc.source, doc.sourceType, roots);
  const fileName = doc.sourceType === "file" ? plainName(basename(doc.source)) : undefined;
  const result: DocumentLabels = { hash: taxonomy.hash, labels: {}, problems: {}, date: null, dateSource: null };
  for (const facet of taxonomy.facets) {
    const ask = async () => {
      const model = taxonomy.model!;
      const request = { question: facet.question, options: facet.values.map((v) => ({ id: v.id, description: v.description })), text: doc.text.slice(0, MODEL_TEXT_CHARS), fileName, fileNameLabel: model.fileNameLabel };
      const probabilities = calibrate(await (await scorer()).logits(request), model.temperature);
      onDistribution?.(facet.id, probabilities);
      return probabilities;
    };
    const outcome = await resolveFacet(facet, relPath, taxonomy.model, ask);
    if (outcome.kind === "label") result.labels[facet.id] = outcome.label;
    if (outcome.kind !== "absent" && outcome.problem) result.problems[facet.id] = outcome.problem;
  }
  const date = documentDate({ text: doc.text, fileName, mtimeMs: doc.sourceType === "file" ? doc.mtimeMs : undefined });
  if (date) {
    result.date = date.date;
    result.dateSource = date.source;
  }
  return result;
}

/** One line naming what a document was stored without, and why; undefined when nothing is missing. */
export function labelProblem(labels: DocumentLabels): string | undefined {
  const entries = Object.entries(labels.problems);
  if (entries.length === 0) return undefined;
  const reasons = [...new Set(entries.map(([, reason]) => reason))];
  return `the label model could not answer ${entries.map(([facet]) => facet).join(", ")}: ${reasons.join("; ")}`;
}
