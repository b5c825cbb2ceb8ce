/**
 * An index moved to object storage before its files had root-relative names
 * (scan/source-names.ts) still names them by the writer's absolute paths,
 * which mean nothing on a reader's machine. The writer's sync renames each
 * one under this machine's roots to its shared name, in one commit and
 * without reading or embedding anything again, as a move is written.
 */
import type { App } from "../app.ts";
import type { SourceSummary } from "../store/chunk-store.ts";

/** Renames absolute file sources under this machine's roots; returns how many were renamed. */
export async function renameToSharedNames(app: App, stored: SourceSummary[]): Promise<number> {
  if (!app.names.shared) return 0;
  const moves = stored
    .filter((s) => s.sourceType === "file" && app.names.sourceOf(s.source) !== s.source)
    .map((s) => ({ from: s.source, to: app.names.sourceOf(s.source), mtime: s.mtime }));
  if (moves.length) await app.store.moveSources(moves);
  return moves.length;
}
