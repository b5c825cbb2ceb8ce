/** Copies of the committed tiny model under chosen folder names, with or without a profile file, for profile and identity tests. */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROFILE_FILE } from "../../src/embed/model-profile.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";

/** A copy of the tiny model at <temp>/<name>; `profile` (any JSON) is written as its profile file when given. */
export function tinyCopy(name = "tiny-copy", profile?: unknown): string {
  const dir = join(tempDir("minirag-model-"), name);
  mkdirSync(dir, { recursive: true });
  cpSync(TINY_MODEL, dir, { recursive: true });
  if (profile !== undefined) writeFileSync(join(dir, PROFILE_FILE), typeof profile === "string" ? profile : JSON.stringify(profile));
  return dir;
}
