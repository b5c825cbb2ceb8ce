/**
 * One facet for one document, in the README's order: within, then the
 * longest path rule (which the model may override at override_at or above),
 * then the default, then the model. Pure apart from the `ask` callback.
 */
import { normaliseFolder } from "./parse-taxonomy.ts";
import type { Facet, ModelSettings } from "./taxonomy.ts";

export type LabelSource = "path" | "default" | "model";

export interface Label {
  value: string;
  confidence: number;
  source: LabelSource;
  /** The model's second choice; null for path and default labels. */
  runnerUp: string | null;
  /** A model label whose top probability is under uncertain_below: it filters softly, matching its runner-up too. */
  uncertain: boolean;
}

/** The model's answer over a facet's values, in their order, calibrated. */
export type Ask = () => Promise<number[]>;

export type FacetOutcome =
  | { kind: "label"; label: Label; problem?: string }
  /** The facet does not apply: outside within, or a path-only facet for a document with no folder. */
  | { kind: "absent" }
  /** The model was needed and could not answer. */
  | { kind: "unset"; problem: string };

/** True when `path` (relative, NFC) is `folder` or lies under it. */
function under(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** The value of the longest paths prefix that holds the document, with that prefix's length. */
export function pathRule(facet: Facet, relPath: string): string | undefined {
  const path = normaliseFolder(relPath);
  let best: { value: string; length: number } | undefined;
  for (const value of facet.values) {
    for (const folder of value.paths) {
      if (under(path, folder) && (!best || folder.length > best.length)) best = { value: value.id, length: folder.length };
    }
  }
  return best?.value;
}

/** A model label from calibrated probabilities over the facet's values. */
export function modelLabel(facet: Facet, probabilities: number[], model: ModelSettings): Label {
  const order = probabilities.map((p, i) => ({ p, i })).sort((a, b) => b.p - a.p);
  const top = order[0]!;
  const second = order[1];
  return {
    value: facet.values[top.i]!.id,
    confidence: top.p,
    source: "model",
    runnerUp: second ? facet.values[second.i]!.id : null,
    uncertain: top.p < model.uncertainBelow,
  };
}

const fixed = (value: string, source: LabelSource): Label => ({ value, confidence: 1, source, runnerUp: null, uncertain: false });

/**
 * Resolves one facet. `relPath` is the document's path relative to its root,
 * or null for a text or URL document, which path rules, within and the
 * default cannot place.
 */
export async function resolveFacet(facet: Facet, relPath: string | null, model: ModelSettings | undefined, ask: Ask): Promise<FacetOutcome> {
  if (facet.within && (relPath === null || !facet.within.some((folder) => under(normaliseFolder(relPath), folder)))) return { kind: "absent" };
  const byPath = relPath === null ? undefined : pathRule(facet, relPath);
  if (byPath !== undefined) {
    if (facet.overrideAt === undefined) return { kind: "label", label: fixed(byPath, "path") };
    try {
      const label = modelLabel(facet, await ask(), model!);
      return { kind: "label", label: label.confidence >= facet.overrideAt ? label : fixed(byPath, "path") };
    } catch (error) {
      // The path rule stands; the document is asked again once the model works.
      return { kind: "label", label: fixed(byPath, "path"), problem: (error as Error).message };
    }
  }
  if (facet.default !== undefined) return relPath === null ? { kind: "absent" } : { kind: "label", label: fixed(facet.default, "default") };
  try {
    return { kind: "label", label: modelLabel(facet, await ask(), model!) };
  } catch (error) {
    return { kind: "unset", problem: (error as Error).message };
  }
}
