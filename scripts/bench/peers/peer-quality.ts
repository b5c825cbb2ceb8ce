/**
 * The peers' retrieval quality, measured as a user runs them: the peer's own
 * CLI indexes each question set's documents (the same copies ours indexes),
 * its own MCP server answers every question at its default settings, and
 * each answer is scored by the rule ours is scored by: the hits' documents in
 * order of their first hit (sections/quality.ts scoreSet).
 */
import { join } from "node:path";
import { openSession, type Session } from "../lib/mcp-driver.ts";
import type { QualitySet } from "../lib/quality-sets.ts";
import { corpusCopy, tempDir, timedRun } from "../lib/setup.ts";
import { scoreSet, type HalfScores } from "../sections/quality.ts";
import { PEER_MAX_HITS, type Peer } from "./peers.ts";

export interface PeerSetRow extends HalfScores {
  set: string;
}

export interface PeerQuality {
  tool: string;
  setup: string;
  rows: PeerSetRow[];
  /** Chunks the peer made of each indexed document set, by index key, as its status reports them. */
  chunks: Record<string, number>;
  /** Why a set, or the whole peer, has no row. */
  failures: string[];
}

/** The chunk count in a peer's status output: both print JSON with a top-level chunkCount. */
export function statusChunks(stdout: string): number | undefined {
  try {
    const count = (JSON.parse(stdout) as { chunkCount?: unknown }).chunkCount;
    return typeof count === "number" ? count : undefined;
  } catch {
    return undefined;
  }
}

/** Every set through one peer, each distinct document set indexed once (the cross-lingual set reuses xquad-en's index). */
export async function benchPeerQuality(peer: Peer, sets: QualitySet[], modelDir: string, log: (line: string) => void): Promise<PeerQuality> {
  const figures: PeerQuality = { tool: peer.name, setup: peer.setup, rows: [], chunks: {}, failures: [] };
  try {
    await peer.install();
  } catch (error) {
    figures.failures.push(`could not be installed: ${(error as Error).message}`);
    return figures;
  }
  for (const key of [...new Set(sets.map((s) => s.indexKey))]) {
    const group = sets.filter((s) => s.indexKey === key);
    const root = corpusCopy(group[0]!.docs, `peer-quality-${key}`);
    const env = peer.env(modelDir, root, join(tempDir(`peer-quality-db-${key}`), "db"));
    log(`quality: ${peer.name} indexing ${group[0]!.docs.length} ${key} documents`);
    const ingest = await timedRun(peer.ingest(root), env, root);
    if (ingest.exitCode !== 0) {
      figures.failures.push(`${key}: ingest exited ${ingest.exitCode}: ${ingest.stderr.slice(-300)}`);
      continue;
    }
    const chunks = statusChunks((await timedRun(peer.status, env, root)).stdout);
    if (chunks !== undefined) figures.chunks[key] = chunks;
    let session: Session | undefined;
    try {
      session = await openSession({ command: peer.server[0]!, args: peer.server.slice(1), env, cwd: root });
      for (const set of group) {
        log(`quality: ${peer.name}, ${set.name}, ${set.queries.length} questions`);
        figures.rows.push({ set: set.name, ...(await scoreSet(set, (query) => askPeer(peer, session!, query))) });
      }
    } catch (error) {
      figures.failures.push(`${key}: ${(error as Error).message.slice(0, 400)}`);
    } finally {
      await session?.close();
    }
  }
  return figures;
}

/** One question through the peer's query_documents, for as many hits as it returns; a tool error fails the set rather than scoring as a miss. */
async function askPeer(peer: Peer, session: Session, query: string): Promise<string[]> {
  const result = await session.client.callTool({ name: "query_documents", arguments: peer.queryArgs(query, PEER_MAX_HITS) }, undefined, { timeout: 120_000 });
  if (result.isError) throw new Error(`query_documents failed on ${JSON.stringify(query)}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return peer.hitSources(result);
}
