/**
 * The few requests the index makes to its object store beside LanceDB: small
 * JSON objects under its prefix (the sync lease, the commit-safety probe, the
 * create lock, staging markers) written with conditional PUTs, and the
 * listing and downloads of the local copy. If-None-Match: * creates only if
 * absent and If-Match: <etag> replaces only the version read, which is what
 * LanceDB's own commits rely on. S3 (s3-objects.ts) and Azure Blob Storage
 * (azure-objects.ts) each speak it; store-objects.ts picks one.
 */

export interface StoredObject {
  body: string;
  etag: string;
  /** Milliseconds since it was last written, by the store's clock (Date minus Last-Modified), when the store says both. */
  ageMs?: number;
}

/** A conditional write's outcome: written (with its new etag), or refused because the condition failed. */
export type PutResult = { written: true; etag: string } | { written: false };

export interface ListedObject {
  key: string;
  size: number;
  /** The store's tag of this version of the object (its ETag): another object written under the same key has another. */
  etag: string;
}

export interface StoreObjects {
  /** The object's text and etag, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Writes only when absent (ifNoneMatch) or when still at the etag read (ifMatch): JSON text, or bytes (a repair's stand-in file). */
  put(key: string, body: string | Uint8Array, condition: { ifNoneMatch: true } | { ifMatch: string }): Promise<PutResult>;
  /** Deletes the object, only while it is at `ifMatch` when given; a missing object is no error. */
  delete(key: string, ifMatch?: string): Promise<void>;
  /** Every object under `folder` (a key prefix inside the index's prefix), by key relative to the index's prefix, with its size. */
  list(folder: string): Promise<ListedObject[]>;
  /** The object's bytes (a small binary object: a table version's manifest), or null when there is none. */
  bytes(key: string): Promise<Uint8Array | null>;
  /** Streams the object into the file at `path` (a large data file is never held whole); false when there is no such object. */
  download(key: string, path: string): Promise<boolean>;
  /** Where the objects live, for messages: s3://bucket/prefix on the endpoint. */
  readonly where: string;
}

/** Requests the index sends at once for many objects (a copy's files, the deletion files a check reads): enough to hide a round trip per file, few enough for a laptop's uplink and the store's rate limits. */
export const REQUESTS_AT_ONCE = 8;

/** Runs `run` over the items, `width` at a time. */
export async function inParallel<T>(items: T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** The longest one file of a copy may take to download: a stalled connection fails the copy (reads stay on the store) rather than holding it forever. */
export const DOWNLOAD_TIMEOUT_MS = 300_000;

/** XML character references decoded (a key may hold & or <). */
export function xmlText(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, name: string) => {
    const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };
    if (named[name.toLowerCase()]) return named[name.toLowerCase()]!;
    return String.fromCodePoint(name[1]?.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
  });
}

/** The age of an answered object by the store's own clock, when it says both times. */
export function ageOf(response: Response): { ageMs?: number } {
  const age = Date.parse(response.headers.get("date") ?? "") - Date.parse(response.headers.get("last-modified") ?? "");
  return Number.isFinite(age) ? { ageMs: age } : {};
}
