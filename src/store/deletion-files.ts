/**
 * A fragment's deletion file: the offsets of its rows that a later write
 * deleted (a document replaced or removed). Every read of the fragment opens
 * it, so one lost or damaged made every scan and search of the whole table
 * fail with Lance's "Not found", and a delete of the fragment failed the same
 * way: a sync could not even drop it (checked on LanceDB 0.31.0).
 *
 * Small sets are an Arrow IPC file of one UInt32 column, `row_id` (`.arrow`);
 * large ones a Roaring bitmap in its portable serialisation (`.bin`). Either
 * tells how many offsets it holds without reading them all, which the
 * manifest records too: a file holding another number was damaged, or is a
 * repair's stand-in (below) that a kill -9 left before its commit.
 *
 * The stand-in: an empty deletion file put where the lost one was makes the
 * fragment readable again, and a delete that selects the whole fragment then
 * drops it in one commit (index-repair.ts). Until that commit it would show
 * the rows the lost file had deleted, which is why it counts as damaged.
 */
import { Field, makeData, RecordBatch, Schema, Struct, Table, tableToIPC, Uint32 } from "apache-arrow";
import { arrowFileRows } from "./arrow-file-rows.ts";
import type { ManifestDeletionFile } from "./lance-manifest.ts";

/** Roaring's portable format: the cookie of a bitmap without run containers, and of one with them (its low 16 bits). */
const NO_RUNS_COOKIE = 12346;
const RUNS_COOKIE = 12347;
/** A container holding more values than this is a 2^16-bit bitmap, 8 KiB; fewer, an array of 16-bit values. */
const ARRAY_CONTAINER_MAX = 4096;
const BITMAP_CONTAINER_BYTES = 8192;

/** What is wrong with a deletion file's bytes (null when there are none: it is missing), or null when they hold what the manifest recorded. */
export function deletionFileProblem(file: ManifestDeletionFile, bytes: Uint8Array | null): string | null {
  const name = `_deletions/${file.path}`;
  if (!bytes) return `${name} is missing`;
  const held = file.bitmap ? bitmapCardinality(bytes) : arrowFileRows(bytes);
  if (held === null) return `${name} is not a readable deletion file (cut short or overwritten)`;
  // Lance writes no empty one: an empty file is a repair's stand-in, even where the manifest recorded no count to compare.
  const recorded = file.rows ?? (held === 0 ? "some" : held);
  return held !== recorded ? `${name} lists ${held} deleted rows where the index recorded ${recorded}` : null;
}

/** An empty deletion file of the kind `file` is: Lance reads every row of the fragment through it. */
export function emptyDeletionFile(file: ManifestDeletionFile): Uint8Array {
  if (file.bitmap) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, NO_RUNS_COOKIE, true);
    return bytes;
  }
  const schema = new Schema([new Field("row_id", new Uint32(), false)]);
  const column = makeData({ type: new Uint32(), length: 0, nullCount: 0, data: new Uint32Array(0) });
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 0, nullCount: 0, children: [column] }));
  return tableToIPC(new Table(schema, [batch]), "file");
}

/** The values a Roaring bitmap holds, from its header (each container's key and cardinality), or null when the bytes are not one. */
export function bitmapCardinality(bytes: Uint8Array): number | null {
  if (bytes.length < 8) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cookie = view.getUint32(0, true);
  let containers: number;
  let header: number;
  const runs = (cookie & 0xffff) === RUNS_COOKIE;
  if (runs) {
    containers = (cookie >>> 16) + 1;
    header = 4 + ((containers + 7) >> 3);
  } else if (cookie === NO_RUNS_COOKIE) {
    containers = view.getUint32(4, true);
    header = 8;
  } else return null;
  if (header + containers * 4 > bytes.length) return null;
  let total = 0;
  let bodyBytes = 0;
  for (let i = 0; i < containers; i++) {
    const count = view.getUint16(header + i * 4 + 2, true) + 1;
    total += count;
    bodyBytes += count > ARRAY_CONTAINER_MAX ? BITMAP_CONTAINER_BYTES : count * 2;
  }
  // Without run containers the length follows from the header (an offset for each container, then the containers): a file cut short shows.
  if (!runs && bytes.length !== header + containers * 8 + bodyBytes) return null;
  return total;
}
