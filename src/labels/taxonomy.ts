/** The shape of a validated classify.toml: facets with their values and rules, and the model that answers the rest. */

export interface FacetValue {
  id: string;
  description: string;
  /** Folders relative to the first root, NFC-normalised, without leading or trailing slashes. */
  paths: string[];
}

export interface Facet {
  id: string;
  question: string;
  values: FacetValue[];
  within?: string[];
  default?: string;
  overrideAt?: number;
}

/** Where the GGUF comes from: a local file, or a pinned Hugging Face download checked by sha256. */
export type ModelSource = { kind: "path"; path: string } | { kind: "pinned"; repo: string; file: string; revision: string; sha256: string };

export interface ModelSettings {
  source: ModelSource;
  temperature: number;
  uncertainBelow: number;
  fileNameLabel: string;
}

export interface Taxonomy {
  facets: Facet[];
  model?: ModelSettings;
  /** Changes whenever anything that decides a label changes: stored with each document's labels, so sync knows what to re-label. */
  hash: string;
}

export const DEFAULT_QUESTION = "What kind of document is this?";
export const DEFAULT_UNCERTAIN_BELOW = 0.7;
export const DEFAULT_FILE_NAME_LABEL = "File name";
/** Option letters the model answers with: A..P. */
export const MAX_MODEL_VALUES = 16;

/** True when resolving this facet can reach the model: it has no default, or its path rules may be overridden. */
export function facetUsesModel(facet: Facet): boolean {
  return facet.default === undefined || facet.overrideAt !== undefined;
}
