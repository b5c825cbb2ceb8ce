/**
 * Damaging an index on purpose, as a disk or a careless copy would: the data
 * file that holds a source's chunks, found through LanceDB's row addresses
 * (fragment id in the high 32 bits) and the manifest's fragment list.
 */
import { rmSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { readManifestFragments } from "../../src/store/lance-manifest.ts";

export async function openChunks(dbPath: string) {
  return (await (await loadLanceDb()).connect(dbPath)).openTable("chunks");
}

/** The data file holding a source's chunks (they must all lie in one fragment). */
export async function dataFileOf(dbPath: string, source: string): Promise<string> {
  const table = await openChunks(dbPath);
  const rows = await table.query().where(`source = '${source.replaceAll("'", "''")}'`).select(["_rowaddr"]).toArray();
  const ids = new Set(rows.map((r) => Number((r._rowaddr as bigint) >> 32n)));
  if (ids.size !== 1) throw new Error(`${source} lies in ${ids.size} fragments`);
  const fragment = readManifestFragments(join(dbPath, "chunks.lance"), await table.version())!.find((f) => f.id === [...ids][0])!;
  return join(dbPath, "chunks.lance", "data", fragment.files[0]!.path);
}

export function loseFile(path: string): void {
  rmSync(path);
}

/** Cuts a file to half its length, as an interrupted copy leaves it. */
export function cutShort(path: string): void {
  truncateSync(path, Math.floor(statSync(path).size / 2));
}

/** The folder of the full-text index on text_search. */
export async function textIndexFolder(dbPath: string): Promise<string> {
  const uuid = (await (await openChunks(dbPath)).listIndices()).find((i) => i.columns.includes("text_search"))!.indexUuid!;
  return join(dbPath, "chunks.lance", "_indices", uuid);
}

/** The deletion file of the fragment holding a source's chunks (a delete of some of that fragment's rows wrote it). */
export async function deletionFileOf(dbPath: string, source: string): Promise<string> {
  const table = await openChunks(dbPath);
  const rows = await table.query().where(`source = '${source.replaceAll("'", "''")}'`).select(["_rowaddr"]).toArray();
  const id = Number((rows[0]!._rowaddr as bigint) >> 32n);
  const fragment = readManifestFragments(join(dbPath, "chunks.lance"), await table.version())!.find((f) => f.id === id)!;
  if (!fragment.deletion) throw new Error(`the fragment of ${source} has no deletion file`);
  return join(dbPath, "chunks.lance", "_deletions", fragment.deletion.path);
}
