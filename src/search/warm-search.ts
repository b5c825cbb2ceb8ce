/**
 * What a first query would otherwise load while its caller waits: the
 * full-text, vector and scalar indexes LanceDB reads from disk on first use,
 * and the look-alike signatures of the whole index (lookalikes/signature-index.ts).
 * At 100k chunks (e5, 300 scifact abstracts replicated) a first query spent
 * about 30 ms loading the keyword index, 60 ms the vector index, 25 ms the
 * section rows' index and 250 ms the signatures; at 1M the signatures alone
 * took 2 s. The MCP server runs this in the background once the handshake
 * is over (mcp/warm-up.ts), beside the model's load.
 */
import type { App } from "../app.ts";
import { queryDocuments } from "./query-documents.ts";

/** latest: the latest version, though questions are being kept on an older one meanwhile (store/query-hold.ts). */
export async function warmSearch(app: App, options: { latest?: boolean } = {}): Promise<void> {
  const store = await app.store.snapshot(options);
  if (!(await store.hasTable())) return;
  const width = await store.vectorWidth();
  // Any vector of the table's width loads the vector index; the answers are thrown away.
  const probe = width ? Float32Array.from({ length: width }, (_, i) => (i === 0 ? 1 : 0)) : null;
  // The signatures first, alone: the largest part, and a query that comes meanwhile waits for this same read
  // (signature-index.ts). Loading the indexes beside it slowed a query asked at once at 1M chunks by 0.2-0.6 s.
  await app.signatures.at(store);
  // Every document's own vector (search/document-evidence.ts): 2 kB each, read once per version.
  if (app.config.documentVectors) await app.documentVectors.at(store);
  await Promise.all([store.keywordSearch("index", 1), probe && store.vectorSearch(probe, 1), store.resultRows(["warm-up"], [])]);
  // find_mentions' text, once it has been used on this index (here or before a restart): from its cache file, about
  // 0.1 s at 100k chunks; from scratch 2-4 s. Never loaded for an index it was never used on (120 MB of text at 100k chunks).
  if (app.mentions.used()) await app.mentions.documents(store);
}

/** One question end to end, its answer thrown away: after warmSearch and the model's load, what is left cold is the code. */
export async function warmQuery(app: App): Promise<void> {
  await queryDocuments(app, { query: "warm-up question", topK: 10 });
}
