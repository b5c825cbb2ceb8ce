/**
 * The profile of a model folder named by an absolute MODEL_NAME: its
 * minirag-profile.json where there is one, over the e5 family's profile when
 * the folder is recognisably e5, over plain defaults (no prefixes, mean
 * pooling, normalised) with the trained length the folder's own files state.
 */
import { basename, dirname } from "node:path";
import { PROFILE_FILE, plainProfile, readProfileFile, type ModelProfile } from "./model-profile.ts";

/** Without a stated length, and as a ceiling on a stated one: the length of BERT-style encoders, and of e5. */
export const DEFAULT_MAX_LENGTH = 512;

/**
 * e5-small/base/large (v1, v2 and multilingual) take "query: " and "passage: ".
 * The -instruct and -mistral variants take an instruction instead, so they are
 * not matched.
 */
const E5_NAME = /(^|[^a-z0-9])(multilingual-)?e5-(small|base|large)(?![a-z0-9-]*(instruct|mistral))/i;

export const E5_PROFILE: ModelProfile = { queryPrefix: "query: ", passagePrefix: "passage: ", pooling: "mean", normalize: true, maxLength: 512 };

export interface FolderFiles {
  tokenizer: { truncation?: { max_length?: number } | null };
  tokenizerConfig: { model_max_length?: number; name_or_path?: string };
  config: { max_position_embeddings?: number; model_type?: string; _name_or_path?: string };
}

export interface FolderProfile {
  profile: ModelProfile;
  /** Where it came from, for the log: the file, the recognised family, or the defaults. */
  source: string;
  /** From the file or a recognised family, not the plain defaults. */
  read: boolean;
}

export function folderProfile(dir: string, files: FolderFiles): FolderProfile {
  const family = e5Evidence(dir, files);
  const maxLength = statedMaxLength(files);
  const base = family ? { ...E5_PROFILE, maxLength } : plainProfile(maxLength);
  const file = readProfileFile(dir);
  if (file) return { profile: { ...base, ...file }, source: `its ${PROFILE_FILE}`, read: true };
  return { profile: base, source: family ? `the e5 family, recognised by ${family}` : "the defaults for a model folder", read: family !== null };
}

/**
 * Why the folder is taken for e5, or null. Names from Hugging Face are
 * reliable: transformers writes the repository into config.json
 * (_name_or_path) and tokenizer_config.json (name_or_path), and the hub cache
 * puts it in a folder two levels up (models--intfloat--multilingual-e5-small/
 * snapshots/<revision>). A folder name a user chose is a good hint, not proof,
 * so the choice is logged and a profile file overrides it.
 */
export function e5Evidence(dir: string, files: FolderFiles): string | null {
  const names: [string, string | undefined][] = [
    ["config.json _name_or_path", files.config._name_or_path],
    ["tokenizer_config.json name_or_path", files.tokenizerConfig.name_or_path],
    ["the folder name", basename(dir)],
    ["the hub cache folder name", basename(dirname(dirname(dir)))],
  ];
  const hit = names.find(([, name]) => name && E5_NAME.test(name));
  return hit ? `${hit[0]} "${hit[1]}"` : null;
}

/** The shortest length the folder's files state, at most DEFAULT_MAX_LENGTH; DEFAULT_MAX_LENGTH when none does. */
export function statedMaxLength(files: FolderFiles): number {
  const stated = [
    files.tokenizer.truncation?.max_length,
    // Huge sentinel values (1e30) in tokenizer_config mean "unset".
    files.tokenizerConfig.model_max_length,
    // RoBERTa-style position tables hold two extra rows (padding offset), so 514 means 512 tokens.
    positions(files.config),
  ].filter((n): n is number => typeof n === "number" && Number.isInteger(n) && n >= 16 && n < 100_000);
  return Math.min(DEFAULT_MAX_LENGTH, ...stated);
}

function positions(config: FolderFiles["config"]): number | undefined {
  const n = config.max_position_embeddings;
  if (typeof n !== "number") return undefined;
  return /roberta|xlm/i.test(config.model_type ?? "") ? n - 2 : n;
}
