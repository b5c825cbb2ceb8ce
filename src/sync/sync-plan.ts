/**
 * The pure part of sync: what the scan saw against what the index holds.
 * I/O (hashing, reading) happens between these steps in sync-compare.ts.
 */
import { basename } from "node:path";
import { isInside } from "../scan/containment.ts";
import type { ScannedFile } from "../scan/scan-roots.ts";
import type { SourceSummary } from "../store/chunk-store.ts";

export interface FirstSort {
  oversized: ScannedFile[];
  /** Not indexed at this path: new, or the new place of a moved file. */
  fresh: ScannedFile[];
  /** Indexed, but cut by an older scheme or with a damaged chunk set: read again whatever the bytes. */
  reingest: ScannedFile[];
  /** Same size and mtime as indexed. */
  unchanged: ScannedFile[];
  /** Size or mtime differ, or a scope names the file: the bytes decide. */
  toHash: { file: ScannedFile; indexed: SourceSummary }[];
  /** Indexed in scope but not seen by the scan. */
  gone: SourceSummary[];
}

/**
 * `named`: files a scope names exactly (the watcher names each file an event
 * touched). Their bytes decide even at the size and mtime the index holds: a
 * file renamed over another of the same size and mtime (two files swapped,
 * an archive with fixed times unpacked over an older one, `cp -p`) kept the
 * old text, found by a probe. A whole sync trusts size and mtime, as rsync does.
 */
export function firstSort(files: ScannedFile[], indexed: SourceSummary[], maxFileSize: number, scheme: number, named: ReadonlySet<string> = new Set()): FirstSort {
  const byPath = new Map(indexed.map((s) => [s.source, s]));
  const sort: FirstSort = { oversized: [], fresh: [], reingest: [], unchanged: [], toHash: [], gone: [] };
  const seen = new Set<string>();
  for (const file of files) {
    seen.add(file.path);
    const known = byPath.get(file.path);
    if (file.size > maxFileSize) sort.oversized.push(file);
    else if (!known) sort.fresh.push(file);
    else if (known.minScheme < scheme || known.damaged) sort.reingest.push(file);
    else if (known.fileSize === file.size && known.mtime === file.mtimeMs && !named.has(file.path)) sort.unchanged.push(file);
    else sort.toHash.push({ file, indexed: known });
  }
  sort.gone = indexed.filter((s) => !seen.has(s.source));
  return sort;
}

/** The name a move must keep: a file renamed on the way is read again, since its title can come from its name. */
function moveKey(path: string, size: number): string {
  return `${basename(path).normalize("NFC")}\u0000${size}`;
}

/** Fresh files that could be a gone file moved (same name and size): only these are hashed to decide. */
export function moveCandidates(fresh: ScannedFile[], gone: SourceSummary[]): ScannedFile[] {
  const keys = new Set(gone.map((g) => moveKey(g.source, g.fileSize)));
  return fresh.filter((f) => keys.has(moveKey(f.path, f.size)));
}

export interface Move {
  from: SourceSummary;
  to: ScannedFile;
}

/** Pairs each candidate with a gone source of the same name, size and bytes; each moves at most once, and a stale or damaged one is read again instead. */
export function pairMoves(candidates: { file: ScannedFile; hash: string }[], gone: SourceSummary[], scheme: number): Move[] {
  const pool = new Map<string, SourceSummary[]>();
  for (const g of gone) {
    const key = `${moveKey(g.source, g.fileSize)}\u0000${g.contentHash}`;
    pool.set(key, [...(pool.get(key) ?? []), g]);
  }
  const moves: Move[] = [];
  for (const { file, hash } of candidates) {
    const from = pool.get(`${moveKey(file.path, file.size)}\u0000${hash}`)?.shift();
    if (from && from.minScheme >= scheme && !from.damaged) moves.push({ from, to: file });
  }
  return moves;
}

/** Gone sources split into those to delete and those kept because they sit under a folder the scan could not see. */
export function splitGone(gone: SourceSummary[], movedFrom: Set<string>, keptFolders: string[], keptFiles: Set<string>): { remove: SourceSummary[]; kept: SourceSummary[] } {
  const remove: SourceSummary[] = [];
  const kept: SourceSummary[] = [];
  for (const g of gone) {
    if (movedFrom.has(g.source)) continue;
    if (keptFiles.has(g.source) || keptFolders.some((folder) => isInside(g.source, folder))) kept.push(g);
    else remove.push(g);
  }
  return { remove, kept };
}
