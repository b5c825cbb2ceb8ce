/**
 * classify try: one document labelled as an ingest would label it, with the
 * model's full distribution for the facets it answered and the reason for
 * each facet left unset. Nothing is embedded or stored.
 */
import { AppError } from "../errors.ts";
import type { DocumentLabels, LabelInput } from "./label-document.ts";
import { labellerFor, releaseLabeller, type LabelContext, type LabelOwner } from "./labeller.ts";
import type { Label } from "./resolve-facet.ts";

export interface TriedFacet extends Partial<Label> {
  /** Calibrated probability per value, for a facet the model answered. */
  distribution?: Record<string, number>;
  /** Why the facet has no value. */
  notSet?: string;
}

export interface TryReport {
  source: string;
  facets: Record<string, TriedFacet>;
  date: string | null;
  dateSource: DocumentLabels["dateSource"];
  /** What the model could not answer, and why: the command exits 1 when there is any. */
  problems: Record<string, string>;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export async function classifyTry(owner: LabelOwner, ctx: LabelContext, doc: LabelInput): Promise<TryReport> {
  const labeller = labellerFor(owner, ctx);
  const state = labeller.taxonomy();
  if (state.state === "absent") throw new AppError("INVALID_ARGUMENT", `There is no classify.toml at ${ctx.roots[0]}/.minirag/classify.toml, so there is nothing to try.`, "Create it (see docs/labels.md), then run classify try again.");
  if (state.state === "error") throw new AppError("CONFIG", state.message, "Fix classify.toml and run classify try again.");
  const distributions = new Map<string, number[]>();
  try {
    const { labels } = await labeller.label(doc, (facet, p) => distributions.set(facet, p));
    const result = labels!;
    const facets: Record<string, TriedFacet> = {};
    for (const facet of state.taxonomy.facets) {
      const label = result.labels[facet.id];
      const entry: TriedFacet = label ? { ...label, confidence: round(label.confidence) } : { notSet: result.problems[facet.id] ?? "does not apply: the document is outside within, or a text or URL item that path rules and defaults cannot place" };
      const p = distributions.get(facet.id);
      if (p) entry.distribution = Object.fromEntries(facet.values.map((v, i) => [v.id, round(p[i]!)]));
      facets[facet.id] = entry;
    }
    return { source: doc.source, facets, date: result.date, dateSource: result.dateSource, problems: result.problems };
  } finally {
    await releaseLabeller(owner);
  }
}
