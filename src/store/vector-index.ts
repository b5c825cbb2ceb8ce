/**
 * The vector index: when it is built, its kind and size, and how a search
 * reads it.
 *
 * Measured 2026-11-30 on 2 cores, on replicas of real e5 vectors (300 scifact
 * abstracts' chunks copied with a small jitter) asked 100 real scifact
 * questions, against exact search:
 *
 * | index at 100k rows, 316 partitions        | search p50 | recall@10 |
 * |-------------------------------------------|-----------:|----------:|
 * | IVF_FLAT, 79 probes (the index until now) |   13-14 ms | 0.92-0.96 |
 * | IVF_PQ 48x8 bits, 79 probes, refine 10    |      12 ms |      0.89 |
 * | IVF_HNSW_SQ, 1 partition, ef 200          |     2.5 ms |      0.52 |
 * | IVF_RQ 1 bit, 79 probes, refine 10        |       9 ms |      0.92 |
 * | IVF_RQ 4 bits, 79 / 120 / 160 probes, refine 2 | 6.0 / 6.4 / 6.6 ms | 0.958 / 0.988 / 0.999 |
 *
 * At 1M rows (1,000 partitions) IVF_RQ with 4 bits took 13 / 17 / 21 ms at
 * 125 / 250 / 500 probes with refine 2, recall@10 1.000; IVF_FLAT took 127 ms
 * at 250 probes. IVF_FLAT spends most of its time reading full vectors;
 * RaBitQ codes of 4 bits a dimension are an eighth of that, and the refine
 * step reads the full vectors of only twice the rows asked for, so distances
 * stay exact (RAG_MAX_DISTANCE compares them). HNSW got lost among the near
 * copies a replica holds (each graph neighbourhood is one document's copies),
 * and a folder with many versions of one document is the same case.
 */
import type { Index, Table, VectorQuery } from "@lancedb/lancedb";
import { loadLanceDb } from "../native/lancedb.ts";
import { schemaVectorWidth } from "./chunk-row.ts";
import { countPending } from "./pending-vectors.ts";

/**
 * Below this many chunks a flat search is fast enough (a few ms at 10k on 2
 * cores) and an index would only cost its build at every sync.
 */
export const ANN_THRESHOLD = 10_000;
/** Rebuild the vector index once the table has grown this many times past what it was trained on. */
const ANN_REBUILD_GROWTH = 4;
/** Bits a dimension in the RaBitQ codes: 1 bit lost a tenth of recall@10 even with refine 10, 8 bits bought nothing over 4. */
const RQ_BITS = 4;
/** The refine step reranks this many times the rows asked for by exact distance. */
const REFINE_FACTOR = 2;
/** The current kind of index is named with this prefix and its partitions; any other vector index is rebuilt once. */
const INDEX_PREFIX = `vector_rq${RQ_BITS}_p`;
/**
 * IVF_FLAT, named with this prefix and its partitions: the index before
 * RaBitQ, and still the index for vectors whose width is not a multiple of 8,
 * which LanceDB's RaBitQ refuses ("vector dimension must be divisible by 8").
 * An IVF_FLAT index of a width RaBitQ takes is searched as before until the
 * next sync that changes the index rebuilds it.
 */
const FLAT_PREFIX = "vector_ivf_p";

/** The kind of index a table of this vector width gets. */
function indexKind(width: number | undefined): { prefix: string; config: (lance: Awaited<ReturnType<typeof loadLanceDb>>, partitions: number) => Index } {
  if (width !== undefined && width % 8 === 0) return { prefix: INDEX_PREFIX, config: (lance, partitions) => lance.Index.ivfRq({ distanceType: "l2", numPartitions: partitions, numBits: RQ_BITS }) };
  return { prefix: FLAT_PREFIX, config: (lance, partitions) => lance.Index.ivfFlat({ distanceType: "l2", numPartitions: partitions }) };
}

/**
 * Partitions: about the square root of the rows, the usual IVF rule.
 * LanceDB's default aims at 8,192 rows a partition (about 12 at 100k), and
 * its 20 probes would then read the whole table.
 */
export function ivfPartitions(rows: number): number {
  return Math.min(4096, Math.max(16, Math.round(Math.sqrt(rows))));
}

/**
 * Probing more than this many partitions of a RaBitQ index bought nothing
 * measurable at 1M rows (1,000 partitions; replicas of real e5 vectors, 100
 * scifact questions against exact search, 2026-12-02): 160, 250, 350 and
 * 500 probes all gave recall@10 0.999 (1.000 with other questions on
 * 2026-11-30, above) and recall@50 0.987, and the search took 20.0 / 20.8 /
 * 22.2 / 24.0 ms. Past 2,048 partitions (about 4M rows, untried) an eighth
 * of them is probed instead: never less than an eighth, half the share
 * measured at 1M.
 */
const RQ_MAX_PROBES = 256;

/** How a search reads the vector index: partitions to probe, and whether to rerank by exact distance. */
export interface VectorPlan {
  probes: number;
  refineFactor?: number;
}

/**
 * Half the partitions of a RaBitQ index, at most RQ_MAX_PROBES (or an eighth past 2,048), with refine:
 * recall@10 0.999 at 100k in the runs above, for 0.6 ms more than a quarter.
 * An IVF_FLAT index gets a quarter of its partitions, at least 20, and no
 * rerank (it reads full vectors, so its distances are exact already); an
 * index LanceDB sized itself, a quarter of what the rule gives for the rows.
 */
export function vectorPlan(indexName: string | undefined, rows: number): VectorPlan {
  // The partitions are in the index's name; a name that does not parse falls back to the rule's count for these rows.
  const partitions = (prefix: string) => {
    const named = Number(indexName!.slice(prefix.length));
    return Number.isInteger(named) && named > 0 ? named : ivfPartitions(rows);
  };
  if (indexName?.startsWith(INDEX_PREFIX)) {
    const rq = partitions(INDEX_PREFIX);
    return { probes: Math.max(20, Math.min(Math.ceil(rq / 2), Math.max(RQ_MAX_PROBES, Math.ceil(rq / 8)))), refineFactor: REFINE_FACTOR };
  }
  const flat = indexName?.startsWith(FLAT_PREFIX) ? partitions(FLAT_PREFIX) : ivfPartitions(rows);
  return { probes: Math.max(20, Math.ceil(flat / 4)) };
}

/** A vector query that reads the index as the plan says. */
export function withPlan(query: VectorQuery, plan: VectorPlan): VectorQuery {
  const probed = query.nprobes(plan.probes);
  return plan.refineFactor ? probed.refineFactor(plan.refineFactor) : probed;
}

/** The vector indexes' names; more than one only between a rebuild's create and its drop (or after a crash there). */
async function vectorIndexNames(table: Table): Promise<string[]> {
  return (await table.listIndices()).filter((i) => i.columns.includes("vector")).map((i) => i.name);
}

/**
 * The vector index a search is planned for. With two (a rebuild that has not
 * dropped the old one yet), the newer kind: its plan reranks by exact
 * distance, so the distances are exact whichever of the two LanceDB reads.
 */
export async function vectorIndexName(table: Table): Promise<string | undefined> {
  const names = await vectorIndexNames(table);
  return names.find((n) => n.startsWith(INDEX_PREFIX)) ?? names.find((n) => n.startsWith(FLAT_PREFIX)) ?? names[0];
}

/** The plan for searching this table as it is now. */
export async function tablePlan(table: Table): Promise<VectorPlan> {
  return vectorPlan(await vectorIndexName(table), await table.countRows());
}

/**
 * Builds the vector index past the threshold, and rebuilds it once the table
 * has grown ANN_REBUILD_GROWTH times past what it was trained on, or when it
 * is of another kind than this width gets. Any other vector index is dropped
 * once the kept one is there, so searches always have one.
 */
export async function ensureVectorIndex(table: Table, threshold: number): Promise<void> {
  const rows = await table.countRows();
  if (rows < threshold) return;
  // Rows waiting for vectors (keyword-only mode) hold zeros, which would train the partitions on nothing.
  if ((await countPending(table)) > 0) return;
  const kind = indexKind(schemaVectorWidth(await table.schema()));
  const existing = await vectorIndexNames(table);
  let kept = existing.find((name) => name.startsWith(kind.prefix));
  const stats = kept ? await table.indexStats(kept) : undefined;
  if (!stats || stats.numIndexedRows * ANN_REBUILD_GROWTH <= rows) {
    const partitions = ivfPartitions(rows);
    kept = `${kind.prefix}${partitions}`;
    await table.createIndex("vector", { config: kind.config(await loadLanceDb(), partitions), replace: true, name: kept });
  }
  for (const name of existing) if (name !== kept) await table.dropIndex(name);
}
