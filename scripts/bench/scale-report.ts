/** The report's scale sections: ingest as the index grows, and the index builds and vector recall at each latency size. */
import type { IndexBuild, VectorRecall } from "./sections/latency.ts";
import { renderScaleSteps, type ScaleStep } from "./scale-ingest.ts";

const mib = (b: number) => (b / 2 ** 20).toFixed(0);

export function renderScale(builds: (IndexBuild & { recall: VectorRecall })[], steps: ScaleStep[], model: string): string {
  const lines = [
    "## Index builds at each latency size (replicas of real vectors)",
    "",
    "| chunks | BM25 + btree + compaction s | its peak RSS MiB | vector index (IVF_RQ) s | its peak RSS MiB | index MiB | vector search recall@10 / @50 vs exact |",
    "|---|---|---|---|---|---|---|",
    ...builds.map((b) => `| ${b.chunks} | ${(b.scalarMs / 1000).toFixed(1)} | ${mib(b.scalarPeakRss)} | ${(b.vectorMs / 1000).toFixed(1)} | ${mib(b.vectorPeakRss)} | ${mib(b.indexBytes)} | ${b.recall.at10.toFixed(3)} / ${b.recall.at50.toFixed(3)} |`),
    "",
  ];
  return `${lines.join("\n")}\n${steps.length ? renderScaleSteps(steps, model) : ""}`;
}
