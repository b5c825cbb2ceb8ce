/**
 * What status says about the label model without loading it: loaded (a job
 * in this process holds it), unavailable (it failed here, or its file or
 * the llama.cpp addon is missing) or on-demand. A pinned model that is not
 * downloaded yet counts as available until a download fails.
 */
import { existsSync } from "node:fs";
import { llamaAddonProblem } from "../native/llama.ts";
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

/** The model's state for status and filter notices; cheap (stat calls only). */
export function modelState(model: ModelSettings): ModelState {
  const key = modelKey(model.source);
  if (loaded.has(key)) return { model: "loaded" };
  const failed = failures.get(key);
  if (failed) return { model: "unavailable", modelHint: failed };
  const addon = llamaAddonProblem();
  if (addon) return { model: "unavailable", modelHint: addon };
  if (model.source.kind === "path" && !existsSync(model.source.path)) {
    return { model: "unavailable", modelHint: `The label model file ${model.source.path} does not exist: fix model.path in classify.toml, or pin a download with repo, file, revision and sha256.` };
  }
  // A pinned file not downloaded yet is fetched by the first document that needs it.
  return { model: "on-demand" };
}
