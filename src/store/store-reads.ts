/**
 * The read side of ChunkStore: every read goes through open(), so it reads
 * the version a staged write pins, or around lost data files (damage-watch.ts),
 * and each read selects only what its caller uses (chunk-reads.ts).
 */
import type { Table } from "@lancedb/lancedb";
import { isLocalPath } from "../config/db-location.ts";
import { schemaVectorWidth, type ChunkRow } from "./chunk-row.ts";
import { keywordSearch, listSources, resultRows, sourceChunks, vectorSearch, type Hit, type Meta, type SectionChunk } from "./chunk-reads.ts";
import { readIndexModel, type IndexModel } from "./index-identity.ts";
import { tableDir } from "./lost-fragments.ts";
import { countPending, pendingChunks, pendingSources, type PendingChunk } from "./pending-vectors.ts";
import { keywordColumns, missingNow } from "./search-columns.ts";
import { recordedSources } from "./source-catalog.ts";
import type { SourceSummary } from "./source-summary.ts";
import { brokenIndexes, lostIndexFolders, missingIndexes } from "./table-upkeep.ts";
import { TableView } from "./table-view.ts";
import { tablePlan } from "./vector-index.ts";
import { countUnsigned, readSignatureBytes, readSignatureKeys, SIGNATURE_KEYS, unsignedSources, type SignatureBytes } from "./signatures.ts";
import { countWithoutDocumentVector, DOCUMENT_VECTOR_KEYS, readDocumentVectorKeys, readDocumentVectors, readOpeningChunks, sourcesWithoutDocumentVector, type OpeningChunks } from "./document-vectors.ts";
import { readDocumentKeys, type DocumentKey } from "./document-keys.ts";
import { DocumentKeyLedger } from "./document-key-ledger.ts";
import { isReadableClone } from "./readable-clone.ts";
import { compileFilter, type RowFilter } from "./row-filter.ts";
import { readLabelRows, type LabelRow } from "./label-rows.ts";
import { readChunkTexts, readMentionRows, readSourceKeys, type MentionRow } from "./mention-rows.ts";

export class StoreReads extends TableView {
  /** A view's keys of both per-document caches (viewKeys). */
  private keysOfView: Promise<DocumentKey[][]> | null = null;
  /** The keys of the last version read, shared by a store and its views (document-key-ledger.ts). */
  protected keyLedger = new DocumentKeyLedger();

  protected override forgetTable(): void {
    super.forgetTable();
    // It reads on from the version it last read, which the new table's history does not hold.
    this.keyLedger = new DocumentKeyLedger();
  }

  /** Data and url sources recorded in the catalog, name -> type. */
  async recordedSources(): Promise<Map<string, ChunkRow["source_type"]>> {
    const table = await this.open();
    return table ? recordedSources(await table.schema()) : new Map();
  }

  /** The model the index records, or null (no index, or one built before models were recorded). */
  async recordedModel(): Promise<IndexModel | null> {
    const table = await this.open();
    return table ? readIndexModel(await table.schema()) : null;
  }

  /** Index columns whose index is missing or unreadable (status reports them; the next write rebuilds them). */
  async unusableIndexes(): Promise<string[]> {
    const table = await this.open();
    if (!table) return [];
    // A local index is checked by its folders; elsewhere (object storage later) by probing.
    const damaged = isLocalPath(this.dbPath) ? await lostIndexFolders(table, tableDir(this.dbPath)) : await brokenIndexes(table);
    return [...missingNow(await missingIndexes(table), (await table.listIndices()).flatMap((i) => i.columns)), ...damaged];
  }

  async sourceChunks(source: string, from?: number, to?: number): Promise<Meta[]> {
    const table = await this.open();
    return table ? sourceChunks(table, this.columns, source, from, to) : [];
  }

  /** The chunks of the given sections, and the given section-less chunks: what an answer shows (chunk-reads.ts). */
  async resultRows(parentIds: string[], loose: { source: string; chunk_index: number }[]): Promise<SectionChunk[]> {
    const table = await this.open();
    return table ? resultRows(table, this.columns, parentIds, loose) : [];
  }

  /**
   * One summary per source, or per source the filter keeps (a sync of a
   * few changed paths reads only theirs). The whole list is read once per
   * table version: a watching server's rescan of an unchanged folder, and
   * list_files or status in between, reuse it.
   */
  async listSources(filter?: RowFilter): Promise<SourceSummary[]> {
    const table = await this.open();
    if (!table) return [];
    const where = compileFilter(filter);
    if (where) return listSources(table, where);
    return (await this.atVersion(table, "sources", (t) => listSources(t))).slice();
  }

  /** The vector width of the table, or null when there is no table yet. */
  async vectorWidth(): Promise<number | null> {
    const table = await this.open();
    if (!table) return null;
    return schemaVectorWidth(await table.schema()) ?? null;
  }

  /** Chunks stored in keyword-only mode that still wait for their vectors. */
  async pendingCount(): Promise<number> {
    const table = await this.open();
    return table ? this.atVersion(table, "pending", countPending) : 0;
  }

  /** Documents without a look-alike signature, counted once per table version (a sync asks before it signs any). */
  async unsignedCount(): Promise<number> {
    const table = await this.open();
    return table ? this.atVersion(table, "unsigned", countUnsigned) : 0;
  }

  /** Sources with chunks waiting for vectors, each with how many. */
  async pendingSources(): Promise<Map<string, number>> {
    const table = await this.open();
    return table ? pendingSources(table) : new Map();
  }

  /** Chunks of these sources waiting for vectors, up to `limit` of them. */
  async pendingChunks(sources: string[], limit?: number): Promise<PendingChunk[]> {
    const table = await this.open();
    return table ? pendingChunks(table, sources, limit) : [];
  }

  /** Chunk rows, or those the filter keeps; 0 without a table. */
  async countRows(filter?: RowFilter): Promise<number> {
    const table = await this.open();
    return table ? table.countRows(compileFilter(filter)) : 0;
  }

  /** True when the table exists (opening it: the server's warm-up opens it beside the model). */
  async hasTable(): Promise<boolean> {
    return (await this.open()) !== null;
  }

  /**
   * What changes whenever the rows may have: the table version and its row
   * count (a checked-out view reports the version it reads), after how many
   * times the table folder was replaced under this store (table-view.ts). Caches of whole-
   * index reads (look-alike signatures, find_mentions' text) key by it; null
   * without a table.
   */
  async contentVersion(): Promise<string | null> {
    // A snapshot never moves, and a query asks for its version once per cache it reads (signatures, document vectors).
    if (this.isView) return (this.viewVersion ??= this.readContentVersion());
    return this.readContentVersion();
  }

  private viewVersion: Promise<string | null> | undefined;

  private async readContentVersion(): Promise<string | null> {
    // The live store's version is checked against its manifest first (table-view.ts): a table replaced in place is forgotten.
    const table = this.isView ? await this.open() : ((await this.openWithVersion())?.table ?? null);
    return table ? `${this.generation}:${await table.version()}:${await table.countRows()}` : null;
  }

  /** Every document's chunk-0 label columns, or those of some sources (label-rows.ts). */
  async labelRows(sources?: string[]): Promise<LabelRow[]> {
    const table = await this.open();
    return table ? readLabelRows(table, sources) : [];
  }

  /** Every chunk's text and place, or those of some sources (mention-rows.ts). */
  async mentionRows(sources?: string[]): Promise<MentionRow[]> {
    const table = await this.open();
    return table ? readMentionRows(table, sources) : [];
  }

  /** A key per source that changes whenever its text may have (mention-rows.ts). */
  async sourceKeys(): Promise<Map<string, string>> {
    const table = await this.open();
    return table ? readSourceKeys(table) : new Map();
  }

  /** The stored text of the given chunks, keyed `source#chunkIndex`. */
  async chunkTexts(chunks: { source: string; chunkIndex: number }[]): Promise<Map<string, string>> {
    const table = await this.open();
    return table ? readChunkTexts(table, chunks) : new Map();
  }

  /** Every stored look-alike signature (or those of the given sources) as bytes, with its document's date (signatures.ts). */
  async signatureBytes(sources: string[] | "all" = "all"): Promise<SignatureBytes> {
    const table = await this.open();
    return table ? readSignatureBytes(table, sources) : { sources: [], stored: [], dates: [], keys: [] };
  }

  /** Every stored signature's key, its date included (signatures.ts): what changed since they were read. */
  async signatureKeys(): Promise<DocumentKey[]> {
    const table = await this.open();
    if (!table) return [];
    return this.isView ? (await this.viewKeys(table))[0]! : readSignatureKeys(table);
  }

  /** Up to `limit` sources without a signature, with the id of the chunk-0 row that takes it. */
  async unsignedSources(limit: number): Promise<{ source: string; id: string }[]> {
    const table = await this.open();
    return table ? unsignedSources(table, limit) : [];
  }

  /** Every stored document vector's key (document-vectors.ts): what changed since a cache was built. */
  async documentVectorKeys(): Promise<DocumentKey[]> {
    const table = await this.open();
    if (!table) return [];
    return this.isView ? (await this.viewKeys(table))[1]! : readDocumentVectorKeys(table);
  }

  /**
   * A view's signature and document-vector keys, from one scan: the first query after a write rebuilds both caches
   * at once (15k chunks, 2 cores: the two scans took 30-70 ms each beside the query's searches). A view's version
   * never changes, so the scan is kept; a failed one is not. After a write only the rows written since the last
   * version read are read (document-key-ledger.ts); a readable clone's versions are its own, so it reads them all.
   */
  private viewKeys(table: Table): Promise<DocumentKey[][]> {
    if (!this.keysOfView) {
      const values = [SIGNATURE_KEYS, DOCUMENT_VECTOR_KEYS];
      const read = isReadableClone(table) ? readDocumentKeys(table, values) : table.version().then((version) => this.keyLedger.read(table, values, version));
      this.keysOfView = read;
      read.catch(() => this.keysOfView === read && (this.keysOfView = null));
    }
    return this.keysOfView;
  }

  /** The stored document vectors of these sources (or of all). */
  async documentVectors(sources: string[] | "all"): Promise<Map<string, Float32Array>> {
    const table = await this.open();
    return table ? readDocumentVectors(table, sources) : new Map();
  }

  /** The first `count` chunks' texts of each source, and chunk 0's vector: what their openings are made of. */
  async openingChunks(sources: string[], count: number): Promise<Map<string, OpeningChunks>> {
    const table = await this.open();
    return table ? readOpeningChunks(table, sources, count) : new Map();
  }

  /** Documents with vectors but no document vector, counted once per table version (a sync asks before it fills any). */
  async withoutDocumentVectorCount(): Promise<number> {
    const table = await this.open();
    return table ? this.atVersion(table, "without-document-vector", countWithoutDocumentVector) : 0;
  }

  /** Up to `limit` documents without a document vector, with the id of the chunk-0 row that takes it. */
  async sourcesWithoutDocumentVector(limit: number): Promise<{ source: string; id: string }[]> {
    const table = await this.open();
    return table ? sourcesWithoutDocumentVector(table, limit) : [];
  }

  async vectorSearch(vector: Float32Array, limit: number, filter?: RowFilter): Promise<Hit[]> {
    const table = await this.open();
    if (!table) return [];
    const waiting = await this.atVersion(table, "pending", countPending);
    // Every row waits for its vector (stored while no model could load): vectors find nothing, and the placeholders'
    // width may be a guess the model loaded now does not share, which LanceDB would refuse as a query error.
    if (waiting > 0 && waiting === (await this.atVersion(table, "rows", (t) => t.countRows()))) return [];
    // How to read the vector index changes only with a commit (vector-index.ts).
    const plan = await this.atVersion(table, "vector-plan", tablePlan);
    return vectorSearch(table, this.columns, vector, limit, { ...plan, skipPending: waiting > 0, filter: compileFilter(filter) });
  }

  async keywordSearch(text: string, limit: number, filter?: RowFilter): Promise<Hit[]> {
    const table = await this.open();
    if (!table) return [];
    // Which columns the full-text indexes cover changes only with a commit; listing the indexes cost ~1 ms a query.
    const indexed = await this.atVersion(table, "keyword-columns", async (t) => keywordColumns((await t.listIndices()).flatMap((i) => i.columns)));
    return keywordSearch(table, this.columns, indexed, text, limit, compileFilter(filter));
  }
}
