/**
 * The retrieval-unit size in tokens, once the model is known. Configuration
 * loads without the model (status and the MCP handshake must not load or
 * download it), so CHUNK_TOKEN_BUDGET is checked there only against the
 * widest length any model may have; the check against this model's trained
 * length happens here, when the embedder loads, before anything is chunked
 * or searched, and it fails as a configuration error naming the variable.
 */
import { AppError } from "../errors.ts";
import { DEFAULT_CHUNK_TOKEN_BUDGET } from "./defaults.ts";

export interface BudgetModel {
  name: string;
  /** Tokens the model was trained on, special tokens and prefix included. */
  maxLength: number;
}

/** The length the reference's 110 was chosen for: the default model's. */
const REFERENCE_LENGTH = 128;

/**
 * The most a longer model's default grows to. Measured with
 * multilingual-e5-small (512 tokens, int8), vectors only, nDCG@10 by document
 * / by answer-bearing chunk, at budgets 110, 200 and 350:
 *   xquad-en (1,190 questions) 0.964/0.900, 0.962/0.945, 0.962/0.959
 *   xquad-ru (1,190 questions) 0.960/0.874, 0.952/0.925, 0.948/0.944
 *   scifact (300 questions, 1,000 abstracts) 0.759, 0.767, 0.746
 * By document 110 and 200 tie on average (0.894) and 350 falls behind on
 * Russian and scifact; 200 puts the answer in the returned chunk far more
 * often, for about twice the text per result (580 characters against 300).
 */
export const LONG_MODEL_BUDGET = 200;

/**
 * The default budget for a model trained on maxLength tokens: a 128-token
 * model keeps the reference's 110 (so the default model behaves as the
 * reference does), shorter ones the same share, longer ones leave the same 18
 * tokens free up to LONG_MODEL_BUDGET.
 */
export function defaultChunkBudget(maxLength: number): number {
  if (maxLength <= REFERENCE_LENGTH) return Math.max(16, Math.floor((maxLength * DEFAULT_CHUNK_TOKEN_BUDGET) / REFERENCE_LENGTH));
  return Math.min(LONG_MODEL_BUDGET, maxLength - (REFERENCE_LENGTH - DEFAULT_CHUNK_TOKEN_BUDGET));
}

/** CHUNK_TOKEN_BUDGET where set, checked against the model; else the model's default. */
export function chunkBudget(configured: number | undefined, model: BudgetModel): number {
  if (configured === undefined) return defaultChunkBudget(model.maxLength);
  if (configured <= model.maxLength) return configured;
  throw new AppError(
    "CONFIG",
    `Configuration error: CHUNK_TOKEN_BUDGET=${configured} is more than the ${model.maxLength} tokens the model ${model.name} was trained on: the encoder would never see the end of each unit.`,
    `Set CHUNK_TOKEN_BUDGET to at most ${model.maxLength}, or unset it to follow the model (${defaultChunkBudget(model.maxLength)} for this one), then restart.`,
  );
}
