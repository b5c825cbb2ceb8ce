/**
 * A local copy's record on disk (object-mirror.ts): the newest version it
 * holds whole, the files it took, and the store's tags of its manifests; and
 * which of the store's files a copy of a version takes.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CopiedManifests } from "./copy-history.ts";
import { manifestVersion } from "./lance-manifest.ts";
import type { ListedObject } from "./object-api.ts";

/** Which listed files a copy of `version` takes: data, deletions, indexes, and the manifests up to it; never commit records or the latest-version hint. */
export function filesOfVersion(listed: ListedObject[], table: string, version: number): ListedObject[] {
  return listed.filter(({ key }) => {
    const inside = key.slice(`${table}.lance/`.length);
    if (inside.startsWith("_versions/")) {
      const v = manifestVersion(inside.slice("_versions/".length));
      return v !== null && v <= version;
    }
    return !inside.startsWith("_transactions/") && !inside.endsWith("latest_version_hint.json");
  });
}

export interface CopyState {
  /** The newest version copied whole. */
  version: number;
  /** The files that copy took, by key. */
  files: string[];
  /** Files of an earlier copy the bucket stopped listing (compacted away): deleted at the next refresh, when no view reads them. */
  unlisted: string[];
  /** The store's tags of the manifests copied (absent in copies made before they were kept). */
  manifests?: CopiedManifests;
}

const STATE = "copy-state.json";

export function readState(folder: string): CopyState | null {
  try {
    const parsed = JSON.parse(readFileSync(join(folder, STATE), "utf8")) as CopyState;
    return typeof parsed.version === "number" && Array.isArray(parsed.files) && Array.isArray(parsed.unlisted) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeState(folder: string, state: CopyState): void {
  mkdirSync(folder, { recursive: true });
  const partial = join(folder, `${STATE}.${randomBytes(4).toString("hex")}.partial`);
  writeFileSync(partial, JSON.stringify(state));
  renameSync(partial, join(folder, STATE));
}
