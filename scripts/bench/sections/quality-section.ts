/**
 * The whole quality section: the model chosen, every set indexed and asked by
 * us and (unless left out) by the peers with the same model files, and in
 * full runs all of scifact (BEIR's setting) and the navigation-page questions.
 */
import { FULL, QUICK, qualitySets } from "../lib/quality-sets.ts";
import { benchPeerQuality, type PeerQuality } from "../peers/peer-quality.ts";
import { PEERS } from "../peers/peers.ts";
import { benchBeirScifact, type BeirFigures } from "./beir-scifact.ts";
import { benchNavigation, type NavigationFigures } from "./navigation.ts";
import { benchQuality, modelFingerprint, qualityModel, type QualityRow } from "./quality.ts";

export interface QualityOptions {
  quick: boolean;
  /** The quality table for our default settings and every weight. */
  sets: boolean;
  /** mcp-local-rag and the reference on the same sets, with the same model files. */
  peers: boolean;
  /** All 5,183 scifact abstracts. */
  beir: boolean;
  /** Table-of-contents pages against content pages (navigation-judgments.json). */
  navigation: boolean;
}

/** The model the quality figures were made with, as the report's banner names it. */
export interface QualityBanner {
  name: string;
  dir: string;
  real: boolean;
  fingerprint: string;
  prefixes: string;
  /** Our chunk size in tokens for this model (unknown when no set was indexed). */
  chunkTokens?: number;
}

export interface QualityFigures {
  quick: boolean;
  rows: QualityRow[];
  banner: QualityBanner;
  /** Our chunks per indexed document set. */
  chunks: Record<string, number>;
  peers: PeerQuality[];
  beir?: BeirFigures;
  navigation?: NavigationFigures;
}

export async function runQualitySection(options: QualityOptions, log: (line: string) => void): Promise<QualityFigures> {
  const model = qualityModel();
  log(`quality: model ${model.name} (${model.dir})`);
  const sets = qualitySets(options.quick ? QUICK : FULL);
  const ours = options.sets ? await benchQuality(sets, model, log) : { rows: [], chunks: {} };
  const peers: PeerQuality[] = [];
  // The peers' vector and hybrid rankings mean nothing with random weights, and they have no keyword-only mode.
  if (options.peers && options.sets && model.real) for (const peer of PEERS) peers.push(await benchPeerQuality(peer, sets, model.dir, log));
  const beir = options.beir ? await benchBeirScifact(model, log) : undefined;
  const navigation = options.navigation ? await benchNavigation(model, log) : undefined;
  return {
    quick: options.quick,
    rows: ours.rows,
    banner: { ...model, fingerprint: modelFingerprint(model.dir), prefixes: ours.embedding?.prefixes ?? "", chunkTokens: ours.embedding?.chunkTokens },
    chunks: ours.chunks,
    peers,
    ...(beir && { beir }),
    ...(navigation && { navigation }),
  };
}
