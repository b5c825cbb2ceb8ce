/**
 * The model an index was built with. Two models of the same width make
 * vectors of the same shape but of unrelated spaces, so the width check alone
 * lets them mix silently. The identity sits in the metadata of the vector
 * column (key MODEL_KEY, a JSON object): it lives in the Lance manifest, so
 * it travels with the table wherever DB_PATH points (object storage too), is
 * read with the schema, and survives merges, added columns, index builds and
 * compaction (checked on LanceDB 0.31.0). That release drops field metadata
 * given to createTable, so a new table records it in a second commit.
 */
import type { Table } from "@lancedb/lancedb";
import { join } from "node:path";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { tryLockFile } from "../native/file-lock.ts";
import { isLocalPath } from "../config/db-location.ts";

export const MODEL_KEY = "minirag.model";

export const IndexModel = z.object({
  /** MODEL_NAME as it was set: a model id or a folder path (shown, not compared). */
  name: z.string(),
  /** The cheap content hash of the model's ONNX file and tokenizer.json. */
  fingerprint: z.string(),
  dimensions: z.number(),
  queryPrefix: z.string(),
  passagePrefix: z.string(),
  pooling: z.string(),
  normalize: z.boolean(),
  maxLength: z.number(),
});
export type IndexModel = z.output<typeof IndexModel>;

/** The model the store's writes and searches run under; set once the embedder has loaded. */
export interface ModelBinding {
  current?: IndexModel;
  log: (line: string) => void;
  /** The table version and model fingerprint a search check last passed. */
  checkedAt?: string;
}

type SchemaLike = { fields: { name: string; metadata: Map<string, string> }[] };

/** The recorded model, or null for an index built before models were recorded (or a record that does not parse). */
export function readIndexModel(schema: SchemaLike): IndexModel | null {
  const raw = schema.fields.find((f) => f.name === "vector")?.metadata.get(MODEL_KEY);
  if (!raw) return null;
  try {
    const parsed = IndexModel.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Same vectors: the same files, width, prefixes, pooling and normalisation. The name and trained length may differ (a moved folder, a profile that only changes the chunk size). */
export function sameModel(a: IndexModel, b: IndexModel): boolean {
  return (
    a.fingerprint === b.fingerprint &&
    a.dimensions === b.dimensions &&
    a.queryPrefix === b.queryPrefix &&
    a.passagePrefix === b.passagePrefix &&
    a.pooling === b.pooling &&
    a.normalize === b.normalize
  );
}

/** "name (fingerprint 1a2b…, 384 dimensions, prefixes "query: "/"passage: ", mean pooling)". */
export function describeIndexModel(m: IndexModel): string {
  const prefixes = m.queryPrefix || m.passagePrefix ? `prefixes ${JSON.stringify(m.queryPrefix)}/${JSON.stringify(m.passagePrefix)}` : "no prefixes";
  return `${m.name} (fingerprint ${m.fingerprint}, ${m.dimensions} dimensions, ${prefixes}, ${m.pooling} pooling${m.normalize ? "" : ", not normalised"})`;
}

export function modelMismatch(dbPath: string, recorded: IndexModel, current: IndexModel): AppError {
  const inUse = describeIndexModel(current);
  const what = recorded.fingerprint === current.fingerprint ? `the same model files with another profile (prefixes, pooling or normalisation): ${inUse}` : inUse;
  return new AppError(
    "INDEX",
    `The index at ${dbPath} was built with the model ${describeIndexModel(recorded)}, but the model in use is ${what}; their vectors cannot be compared.`,
    `Set MODEL_NAME=${recorded.name} to use this index, or point DB_PATH at a new folder for the new model, or delete ${dbPath} and sync again to rebuild it with the new model.`,
  );
}

/** Refuses a search under another model than the one the index records. An index that records none is searched as before. */
export async function checkSearchModel(table: Table, dbPath: string, binding: ModelBinding): Promise<void> {
  if (!binding.current) return;
  const recorded = readIndexModel(await table.schema());
  if (recorded && !sameModel(recorded, binding.current)) throw modelMismatch(dbPath, recorded, binding.current);
}

/**
 * checkSearchModel once per table version and model: the record changes only
 * with a commit, and every query asks. A query passes the version its
 * snapshot reads, which is the one to check, and at a version already checked
 * opens nothing (opening asks for the latest version again: on S3, a request).
 */
export async function checkSearchModelOnce(binding: ModelBinding, dbPath: string, atVersion: number | undefined, open: () => Promise<Table | null>): Promise<void> {
  const fingerprint = binding.current?.fingerprint;
  if (atVersion !== undefined && `${atVersion}:${fingerprint}` === binding.checkedAt) return;
  const table = await open();
  if (!table) return;
  const checked = `${atVersion ?? (await table.version())}:${fingerprint}`;
  if (checked === binding.checkedAt) return;
  await checkSearchModel(table, dbPath, binding);
  binding.checkedAt = checked;
}

/**
 * Before a write: refuses another model, and records the current one where
 * the index has none: a table this write just created, or one built before
 * models were recorded, which is adopted (its vector width already matched)
 * and said once in the log. A write without a bound model records nothing.
 */
export async function ensureWriteModel(table: Table, dbPath: string, binding: ModelBinding): Promise<void> {
  const current = binding.current;
  if (!current) return;
  const recorded = readIndexModel(await table.schema());
  if (recorded) {
    if (!sameModel(recorded, current)) throw modelMismatch(dbPath, recorded, current);
    return;
  }
  // Two writers that both find no record must not both write one: Lance takes the second
  // metadata commit over the first (measured: the last model wins), so models would mix.
  const release = await recordLock(dbPath);
  try {
    await recordOnce(table, dbPath, current, binding.log);
  } finally {
    release();
  }
}

async function recordOnce(table: Table, dbPath: string, current: IndexModel, log: (line: string) => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const recorded = readIndexModel(await table.schema());
    if (recorded) {
      if (!sameModel(recorded, current)) throw modelMismatch(dbPath, recorded, current);
      return;
    }
    // Version 1 is a table a writer has just created: no adoption to announce.
    const fresh = (await table.version()) <= 1;
    try {
      await table.updateFieldMetadata([{ path: "vector", metadata: { [MODEL_KEY]: JSON.stringify(current) } }]);
    } catch (error) {
      // Where no lock could be taken, Lance may refuse a metadata commit that raced another: read what that one wrote.
      if (attempt < RECORD_ATTEMPTS && /incompatible|conflict/i.test((error as Error).message)) continue;
      throw error;
    }
    if (!fresh) {
      log(
        `The index at ${dbPath} did not record its embedding model (it was built before models were recorded); its ${current.dimensions}-dimensional vectors match, so it now records ${describeIndexModel(current)}. If it was built with another model, delete it and sync again.`,
      );
    }
    return;
  }
}

const RECORD_ATTEMPTS = 5;
const RECORD_LOCK = ".model.lock";
/** Recording takes milliseconds; a holder that long is stuck, and going on unlocked is what a lockless file system gets anyway. */
const RECORD_WAIT_MS = 30_000;

/** A kernel lock beside a local index (none for object storage, where the commit-conflict retry is all there is). */
async function recordLock(dbPath: string): Promise<() => void> {
  if (!isLocalPath(dbPath)) return () => {};
  const deadline = Date.now() + RECORD_WAIT_MS;
  for (;;) {
    const result = tryLockFile(join(dbPath, RECORD_LOCK));
    if (result.kind === "held") return () => result.lock.release();
    if (result.kind === "error" || Date.now() > deadline) return () => {};
    await Bun.sleep(10);
  }
}
