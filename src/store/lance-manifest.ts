/**
 * The fragments a version of a local Lance table lists, read from its
 * manifest file, with the data files each one needs and their recorded
 * sizes. LanceDB's JavaScript API names no fragment and no file, so the one
 * way to tell which data file a lost row lived in, without reading any data,
 * is the manifest itself (layout: lance's protos/table.proto, messages
 * Manifest, DataFragment, DataFile, DeletionFile). The same goes for a
 * fragment's deletion file, which every read of the fragment opens too.
 *
 * A manifest file ends in 16 bytes: the byte offset of the manifest (i64),
 * the format version (two u16) and "LANC". At that offset lie the message's
 * length (u32) and the Manifest message. Versions are named
 * `_versions/<2^64 - 1 - version>.manifest` (Lance's naming scheme V2, every
 * table LanceDB 0.31 creates), or `<version>.manifest` in tables from before it.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { fieldText, LENGTH_DELIMITED, MalformedProtobuf, readFields, VARINT, varintBigInt, type WireField } from "../protobuf-fields.ts";

export interface ManifestDataFile {
  /** Relative to the table's data/ folder. */
  path: string;
  /** As the writer recorded it; null where it recorded none (older writers). */
  size: number | null;
}

/** The rows a fragment no longer has, by their offsets: an Arrow file of them, or a Roaring bitmap for many. */
export interface ManifestDeletionFile {
  /** Relative to the table's _deletions/ folder: `<fragment>-<read version>-<id>.arrow` or `.bin`. */
  path: string;
  bitmap: boolean;
  /** Rows it marks deleted, as the writer recorded; null where it recorded none (older writers). */
  rows: number | null;
}

export interface ManifestFragment {
  id: number;
  files: ManifestDataFile[];
  deletion: ManifestDeletionFile | null;
  /** Rows the fragment holds that no deletion file removes. */
  rows: number;
}

const FOOTER_BYTES = 16;
const MAGIC = "LANC";

/** Field numbers in table.proto. */
const MANIFEST = { fragments: 2, version: 3 };
const FRAGMENT = { id: 1, files: 2, deletionFile: 3, physicalRows: 4 };
const DATA_FILE = { path: 1, size: 6, baseId: 7 };
const DELETION_FILE = { fileType: 1, readVersion: 2, id: 3, deletedRows: 4, baseId: 7 };
const BITMAP_TYPE = 1;

/** The names a version's manifest may have in `_versions/`: naming scheme V2's first, then V1's. */
export function manifestNames(version: number): string[] {
  return [`${(MAX_U64 - BigInt(version)).toString()}.manifest`, `${version}.manifest`];
}

/** Manifests are named u64::MAX − version (Lance's V2 naming) or by the version itself (V1). */
export const MAX_U64 = (1n << 64n) - 1n;

/** The version a manifest's file name stands for, or null for any other file of `_versions/`. */
export function manifestVersion(name: string): number | null {
  const match = /^(\d+)\.manifest$/.exec(name);
  if (!match) return null;
  const n = BigInt(match[1]!);
  return match[1]!.length === 20 ? Number(MAX_U64 - n) : Number(n);
}

/** The manifest file of a version, or null when neither naming scheme finds one. */
export function manifestFile(tableDir: string, version: number): string | null {
  return manifestNames(version).map((name) => join(tableDir, "_versions", name)).find((path) => existsSync(path)) ?? null;
}

/**
 * The fragments of a version, or null when its manifest cannot be found or
 * read as expected (another layout, files on another base path): the caller
 * then asks LanceDB instead (lost-fragments.ts).
 */
export function readManifestFragments(tableDir: string, version: number): ManifestFragment[] | null {
  const path = manifestFile(tableDir, version);
  return path ? parseManifestFragments(readWhole(path), version) : null;
}

/** The fragments a manifest file's bytes list, or null when they are not the manifest of `version` as expected. */
export function parseManifestFragments(bytes: Uint8Array, version: number): ManifestFragment[] | null {
  try {
    const message = manifestMessage(bytes);
    const fields = readFields(message);
    const stated = fields.find((f) => f.number === MANIFEST.version && f.wireType === VARINT)?.value;
    if (stated !== version) return null;
    const fragments: ManifestFragment[] = [];
    for (const field of fields) {
      if (field.number !== MANIFEST.fragments || field.wireType !== LENGTH_DELIMITED) continue;
      const fragment = readFragment(field);
      if (!fragment) return null;
      fragments.push(fragment);
    }
    return fragments;
  } catch (error) {
    if (error instanceof MalformedProtobuf || error instanceof RangeError) return null;
    throw error;
  }
}

/** True when the bytes are a whole manifest of `version`: its footer, a message that parses, and that version stated in it. */
export function readsAsManifest(bytes: Uint8Array, version: number): boolean {
  try {
    return readFields(manifestMessage(bytes)).some((f) => f.number === MANIFEST.version && f.wireType === VARINT && f.value === version);
  } catch (error) {
    if (error instanceof MalformedProtobuf || error instanceof RangeError) return false;
    throw error;
  }
}

function readWhole(path: string): Uint8Array {
  const size = statSync(path).size;
  const bytes = new Uint8Array(size);
  const fd = openSync(path, "r");
  try {
    readSync(fd, bytes, 0, size, 0);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

function manifestMessage(bytes: Uint8Array): Uint8Array {
  if (bytes.length < FOOTER_BYTES || new TextDecoder().decode(bytes.subarray(bytes.length - 4)) !== MAGIC) throw new MalformedProtobuf("no Lance footer");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = Number(view.getBigInt64(bytes.length - FOOTER_BYTES, true));
  if (at < 0 || at + 4 > bytes.length - FOOTER_BYTES) throw new MalformedProtobuf("manifest offset out of range");
  const length = view.getUint32(at, true);
  if (at + 4 + length > bytes.length - FOOTER_BYTES) throw new MalformedProtobuf("manifest runs past the footer");
  return bytes.subarray(at + 4, at + 4 + length);
}

function readFragment(field: WireField): ManifestFragment | null {
  let id = 0;
  let physicalRows = 0;
  let deletionFields: WireField[] | null = null;
  const files: ManifestDataFile[] = [];
  for (const part of readFields(field.payload)) {
    if (part.number === FRAGMENT.id && part.wireType === VARINT) id = part.value;
    else if (part.number === FRAGMENT.physicalRows && part.wireType === VARINT) physicalRows = part.value;
    else if (part.number === FRAGMENT.deletionFile && part.wireType === LENGTH_DELIMITED) deletionFields = readFields(part.payload);
    else if (part.number === FRAGMENT.files && part.wireType === LENGTH_DELIMITED) {
      const file = readDataFile(part.payload);
      if (!file) return null;
      files.push(file);
    }
  }
  // The deletion file's name holds the fragment's id, which may come after it in the message.
  const deletion = deletionFields && readDeletionFile(deletionFields, id);
  if (deletion === undefined) return null;
  return { id, files, deletion, rows: physicalRows - (deletion?.rows ?? 0) };
}

/** The deletion file, null for none recorded, undefined for one on another base path (not under this table's folder). */
function readDeletionFile(fields: WireField[], fragmentId: number): ManifestDeletionFile | null | undefined {
  const varint = (number: number) => fields.find((f) => f.number === number && f.wireType === VARINT);
  if (fields.some((f) => f.number === DELETION_FILE.baseId)) return undefined;
  if (!varint(DELETION_FILE.readVersion) && !varint(DELETION_FILE.id)) return null;
  const rows = varint(DELETION_FILE.deletedRows)?.value || null;
  const bitmap = varint(DELETION_FILE.fileType)?.value === BITMAP_TYPE;
  const [readVersion, id] = [DELETION_FILE.readVersion, DELETION_FILE.id].map((n) => {
    const field = varint(n);
    return field ? varintBigInt(field) : 0n;
  });
  return { path: `${fragmentId}-${readVersion}-${id}.${bitmap ? "bin" : "arrow"}`, bitmap, rows };
}

function readDataFile(payload: Uint8Array): ManifestDataFile | null {
  let path = "";
  let size: number | null = null;
  for (const part of readFields(payload)) {
    if (part.number === DATA_FILE.path && part.wireType === LENGTH_DELIMITED) path = fieldText(part);
    else if (part.number === DATA_FILE.size && part.wireType === VARINT) size = part.value || null;
    // A file on another base path (a shallow clone's) is not under this table's data/ folder.
    else if (part.number === DATA_FILE.baseId) return null;
  }
  return path ? { path, size } : null;
}
