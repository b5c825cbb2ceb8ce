/**
 * What status says about the label model without loading it: loaded (a job
 * in this process holds it), unavailable (it failed here, or its file or
 * the llama.cpp add-on cannot be had) or on-demand. A pinned model, or the
 * add-on, that is not downloaded yet counts as available until a download
 * fails (then the hint says why and what to do).
 */
import { existsSync } from "node:fs";
import { llamaAddonState, type AddonPlace } from "./llama-addon.ts";
import type { ModelSettings, ModelSource } from "./taxonomy.ts";

export interface ModelState {
  model: "on-demand" | "loaded" | "unavailable";
  modelHint?: string;
}

const failures = new Map<string, string>();
const loaded = new Map<string, number>();

export function modelKey(source: ModelSource): string {
  return source.kind === "path" ? source.path : `${source.repo}@${source.revision}/${source.file}`;
}

export function noteModelLoaded(key: string): void {
  failures.delete(key);
  loaded.set(key, (loaded.get(key) ?? 0) + 1);
}

export function noteModelReleased(key: string): void {
  const n = (loaded.get(key) ?? 1) - 1;
  if (n > 0) loaded.set(key, n);
  else loaded.delete(key);
}

export function noteModelFailure(key: string, reason: string): void {
  failures.set(key, reason);
}

/** The model's state for status and filter notices; cheap (stat calls only). `addon` says where the llama.cpp add-on may be (CACHE_DIR). */
export function modelState(model: ModelSettings, addon: AddonPlace = {}): ModelState {
  const key = modelKey(model.source);
  if (loaded.has(key)) return { model: "loaded" };
  const failed = failures.get(key);
  if (failed) return { model: "unavailable", modelHint: failed };
  const runtime = llamaAddonState(addon);
  if (runtime.state === "unavailable") return { model: "unavailable", modelHint: runtime.reason };
  if (model.source.kind === "path" && !existsSync(model.source.path)) {
    return { model: "unavailable", modelHint: `The label model file ${model.source.path} does not exist: fix model.path in classify.toml, or pin a download with repo, file, revision and sha256.` };
  }
  // A pinned file or the add-on not downloaded yet is fetched by the first document that needs it.
  return runtime.state === "downloadable" ? { model: "on-demand", modelHint: runtime.note } : { model: "on-demand" };
}
