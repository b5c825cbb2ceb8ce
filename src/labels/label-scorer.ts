/**
 * The model behind model-answered facets, as an interface: given a closed
 * question and its options, a score per option. The llama.cpp scorer
 * (llama-scorer.ts) reads the logit of each option letter; tests script one.
 * Calibration is applied here, not by the scorer, so every scorer is
 * calibrated the same way. The contract of loading one (ScorerFactory) lives
 * here too, so the labeller and the llama.cpp scorer both import it and
 * neither imports the other's types.
 */
import type { ModelSettings } from "./taxonomy.ts";

export interface ScoreOption {
  id: string;
  description: string;
}

export interface ScoreRequest {
  question: string;
  options: ScoreOption[];
  /** The start of the document as stored. */
  text: string;
  /** The file name (no folders), when the document has one. */
  fileName?: string;
  /** How the prompt introduces the file name ("File name", or in the corpus language). */
  fileNameLabel: string;
}

export interface LabelScorer {
  /** One raw logit per option, in the order given. Throws when the model cannot run. */
  logits(request: ScoreRequest): Promise<number[]>;
}

/** A scorer with a model behind it, to be freed when its job ends. */
export interface LoadedScorer extends LabelScorer {
  release(): Promise<void>;
}

/** What loading the label model needs: where to cache and fetch it, and where to log. */
export interface ScorerPlace {
  cacheDir: string;
  hfEndpoint: string;
  /** MINIRAG_DOWNLOAD_URL: where the llama.cpp add-on comes from instead of this version's release. */
  downloadUrl?: string;
  log: (line: string) => void;
}

/** Loads the scorer for one model; the labeller takes the llama.cpp one unless a test scripts another. */
export type ScorerFactory = (model: ModelSettings, ctx: ScorerPlace) => Promise<LoadedScorer>;

/** Probabilities from logits at the model's calibration temperature: softmax(logit / T). */
export function calibrate(logits: number[], temperature: number): number[] {
  const scaled = logits.map((l) => l / temperature);
  const top = Math.max(...scaled);
  const exp = scaled.map((s) => Math.exp(s - top));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}
