/**
 * status's labels block, present only with a classify.toml: each facet with
 * its question and values (descriptions and document counts), how many
 * documents lack a label or rest on an uncertain one, the undated total and
 * the model's state. Or, for a file that cannot be read, the error alone.
 * Nothing here loads the model.
 */
import type { ChunkStore } from "../store/chunk-store.ts";
import { readDocumentLabels } from "./document-labels.ts";
import type { AddonPlace } from "./llama-addon.ts";
import { modelState, type ModelState } from "./model-state.ts";
import type { TaxonomyFile } from "./taxonomy-file.ts";
import { facetUsesModel } from "./taxonomy.ts";

export interface FacetStatus {
  question: string;
  /** True when the model answers this facet (or may override its path rules). */
  model: boolean;
  values: Record<string, { description: string; documents: number }>;
  /** Documents without a label for this facet that should have one: not labelled yet, or the model could not answer. */
  unlabelled: number;
  /** Documents whose label for this facet is uncertain (it filters softly). */
  uncertain: number;
}

export interface LabelStatus {
  file: string;
  error?: string;
  facets?: Record<string, FacetStatus>;
  /** Indexed documents without a date. */
  undated?: number;
  model?: ModelState["model"];
  modelHint?: string;
}

/** The labels block, or undefined when the corpus has no classify.toml; `addon` says where the llama.cpp add-on may be (CACHE_DIR). */
export async function labelStatus(store: ChunkStore | null, taxonomyFile: TaxonomyFile, addon: AddonPlace = {}): Promise<LabelStatus | undefined> {
  const state = taxonomyFile.load();
  if (state.state === "absent") return undefined;
  if (state.state === "error") return { file: state.file, error: state.message };
  const { taxonomy } = state;
  const docs = await readDocumentLabels(store);
  const facets: Record<string, FacetStatus> = {};
  for (const facet of taxonomy.facets) {
    const values = Object.fromEntries(facet.values.map((v) => [v.id, { description: v.description, documents: 0 }]));
    const entry: FacetStatus = { question: facet.question, model: facetUsesModel(facet), values, unlabelled: 0, uncertain: 0 };
    for (const doc of docs.values()) {
      const label = doc?.labels[facet.id];
      if (label) {
        if (values[label.value]) values[label.value]!.documents++;
        if (label.uncertain) entry.uncertain++;
      } else if (!doc || doc.hash !== taxonomy.hash || facet.id in doc.problems) entry.unlabelled++;
    }
    facets[facet.id] = entry;
  }
  const undated = [...docs.values()].filter((d) => !d?.date).length;
  const block: LabelStatus = { file: state.file, facets, undated };
  if (taxonomy.model) Object.assign(block, modelState(taxonomy.model, addon));
  return block;
}
