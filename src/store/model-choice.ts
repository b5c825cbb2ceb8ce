/**
 * Which model a process embeds with. MODEL_NAME, where set, decides. Unset,
 * the index decides: one that records its model keeps it; one built before
 * models were recorded was built with the old default, so it keeps that
 * (two models of one width would otherwise mix silently, and its missing
 * record would adopt whichever loaded first); and only a new index, or one
 * holding no vectors yet (every chunk stored in keyword-only mode), gets the
 * new default.
 */
import { DEFAULT_MODEL, LEGACY_DEFAULT_MODEL } from "../config/defaults.ts";
import type { ChunkStore } from "./chunk-store.ts";

/** set: MODEL_NAME; recorded: the index's record; unrecorded: an index older than records; new: no vectors to match. */
export type ModelReason = "set" | "recorded" | "unrecorded" | "new";

export interface ModelChoice {
  name: string;
  reason: ModelReason;
  /** One sentence for status: why this model. */
  why: string;
}

/** The model to embed with (see the file comment). An index that cannot be read fails here rather than be guessed at. */
export async function chooseModel(configured: string | undefined, store: ChunkStore): Promise<ModelChoice> {
  if (configured) return { name: configured, reason: "set", why: "MODEL_NAME is set." };
  const recorded = await store.recordedModel();
  if (recorded) return { name: recorded.name, reason: "recorded", why: "MODEL_NAME is unset and the index records this model." };
  const embedded = (await store.countRows()) - (await store.pendingCount());
  if (embedded > 0) {
    return {
      name: LEGACY_DEFAULT_MODEL,
      reason: "unrecorded",
      why: `MODEL_NAME is unset and the index predates model records, so it was built with the old default, which it keeps; for the new default (${DEFAULT_MODEL}), point DB_PATH at a new folder, or delete the index and sync again.`,
    };
  }
  return { name: DEFAULT_MODEL, reason: "new", why: "MODEL_NAME is unset and the index holds no vectors yet: the default for a new index." };
}
