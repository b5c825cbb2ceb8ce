/**
 * What a model expects besides its weights: text prefixes for queries and
 * passages (e5 wants `query: ` and `passage: `), how token vectors become one
 * vector (mean or CLS pooling), whether it is L2-normalised, and the length
 * it was trained on. A model folder may carry its own in PROFILE_FILE.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { MAX_MODEL_LENGTH } from "../config/defaults.ts";
import { AppError } from "../errors.ts";

/** The optional file in a model folder that states its profile. */
export const PROFILE_FILE = "minirag-profile.json";

export const ModelProfile = z.object({
  /** Put before every query, e.g. "query: ". */
  queryPrefix: z.string(),
  /** Put before every stored chunk, e.g. "passage: ". */
  passagePrefix: z.string(),
  pooling: z.enum(["mean", "cls"]),
  normalize: z.boolean(),
  /** Tokens the model was trained on (special tokens included); input past it is cut off. */
  maxLength: z.number().int().min(16).max(MAX_MODEL_LENGTH),
});
export type ModelProfile = z.output<typeof ModelProfile>;

/** The file's shape: every field optional (the rest comes from the folder), unknown fields refused so a misspelt key is not silently ignored. */
export const ProfileFile = ModelProfile.partial().strict();
export type ProfileFile = z.output<typeof ProfileFile>;

/** What a folder gets without a file or a recognised family: no prefixes, mean pooling, normalised. */
export function plainProfile(maxLength: number): ModelProfile {
  return { queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength };
}

const FILE_HINT =
  `${PROFILE_FILE} is optional; its fields are queryPrefix (string), passagePrefix (string), pooling ("mean" or "cls"), ` +
  `normalize (true or false) and maxLength (an integer from 16 to ${MAX_MODEL_LENGTH}). Fix the field or delete the file.`;

/** The profile file of a folder, validated; null when the folder has none. */
export function readProfileFile(dir: string): ProfileFile | null {
  const path = join(dir, PROFILE_FILE);
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AppError("MODEL_FOLDER", `The model profile ${path} is not valid JSON: ${(error as Error).message}`, FILE_HINT);
  }
  const parsed = ProfileFile.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join(".") || "(the whole file)";
  throw new AppError("MODEL_FOLDER", `The model profile ${path} is invalid: field ${field}: ${issue.message}`, FILE_HINT);
}

/** A one-line description for logs and status: `prefixes "query: "/"passage: ", mean pooling, normalised, 512 tokens`. */
export function describeProfile(p: ModelProfile): string {
  const prefixes = p.queryPrefix || p.passagePrefix ? `prefixes ${JSON.stringify(p.queryPrefix)}/${JSON.stringify(p.passagePrefix)}` : "no prefixes";
  return `${prefixes}, ${p.pooling} pooling, ${p.normalize ? "normalised" : "not normalised"}, trained on ${p.maxLength} tokens`;
}
