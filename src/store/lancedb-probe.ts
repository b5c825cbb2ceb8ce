/** `debug lancedb`: proves LanceDB's native part loads and searches, on a throwaway table in a temp folder. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadLanceDb } from "../native/lancedb.ts";

export interface LanceDbProbe {
  rows: number;
  vectorTop: unknown;
  ftsTop: unknown;
}

/** Creates a two-row table with a vector and a full-text index, searches it both ways, and removes it. */
export async function probeLanceDb(): Promise<LanceDbProbe> {
  const lance = await loadLanceDb();
  const dir = mkdtempSync(join(tmpdir(), "minirag-lancedb-"));
  try {
    const db = await lance.connect(dir);
    const table = await db.createTable("probe", [
      { text: "alpha beta", vector: [1, 0] },
      { text: "gamma delta", vector: [0, 1] },
    ]);
    await table.createIndex("text", { config: lance.Index.fts() });
    const vectorHit = await table.vectorSearch([0.9, 0.1]).limit(1).toArray();
    const textHit = await table.search("gamma", "fts").limit(1).toArray();
    return { rows: await table.countRows(), vectorTop: vectorHit[0]?.text, ftsTop: textHit[0]?.text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
