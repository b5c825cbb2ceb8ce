/** The benchmark report: Markdown tables, ratios against the peers, and the targets. */
import { cpus } from "node:os";
import type { PeerFigures } from "./peers/peers.ts";
import type { IngestFigures } from "./sections/ingest.ts";
import type { LatencyRow } from "./sections/latency.ts";
import { memoryTargets, type MemoryRun } from "./sections/memory.ts";
import type { ScaleStep } from "./scale-ingest.ts";
import type { SpeedModel } from "./lib/setup.ts";
import type { QualityFigures } from "./sections/quality-section.ts";
import { qualityTargets, renderQuality } from "./report-quality.ts";
import { renderStartup, startupTargetRows, type StartupFigures } from "./sections/startup.ts";
import { markdownTable as table } from "./lib/markdown-table.ts";
import { fmt, mib } from "./lib/stats.ts";

export interface ReportInput {
  quick: boolean;
  withPeers: boolean;
  model: SpeedModel;
  scale: ScaleStep[];
  memory: MemoryRun[];
  ingest: IngestFigures;
  latency: LatencyRow[];
  startup: StartupFigures;
  quality: QualityFigures;
  peers: PeerFigures[];
  minutes: number;
}

/** Each ingest run's main-thread and other CPU as shares of the model threads' (sections/ingest.ts cpuRuns). */
function cpuShares(ingest: IngestFigures): string {
  const runs = ingest.cpuRuns.filter((c) => c !== null && c.modelMs > 0);
  if (runs.length === 0) return "not measured (needs Linux's /proc)";
  return runs.map((c) => `${fmt((c!.mainMs / c!.modelMs) * 100)}% + ${fmt((c!.otherMs / c!.modelMs) * 100)}%`).join(", ");
}

export function renderReport(r: ReportInput): string {
  const { ingest } = r;
  const s = ingest.inProcessMs / 1000;
  const overhead = (ingest.inProcessMs - ingest.modelOnlyMs) / ingest.modelOnlyMs;
  const oursChunksPerSecond = ingest.chunks / (ingest.binaryMs / 1000);
  const lat = (chunks: number, mode: string, transport = "mcp-stdio") => r.latency.find((x) => x.chunks === chunks && x.mode === mode && x.transport === transport);
  const smallest = Math.min(...r.latency.map((x) => x.chunks));
  const out: string[] = [];
  out.push(`# minirag-mcp benchmark${r.quick ? " (--quick)" : ""}`);
  out.push(`${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${process.platform}-${process.arch}, bun ${Bun.version}. Took ${fmt(r.minutes)} min.`);
  out.push(
    r.model.realShape
      ? `> Speed, start-up and memory runs use ${r.model.name} for every tool, on the same files. It is not the default model (which cannot be downloaded here) but has its shape: the same vocabulary size, layers and width, so the same compute, load time and memory.`
      : `> Speed runs use the ${r.model.name} for every tool, on the same files: the default model's compute, but not its tokenizer's cost. Random weights say nothing about retrieval quality.`,
  );

  out.push("## Ingest");
  out.push(
    table(
      ["figure", "value"],
      [
        ["documents / chunks / MB", `${ingest.docs} / ${ingest.chunks} / ${fmt(mib(ingest.bytes), 2)}`],
        ["in-process ingest (model loaded; best of runs)", `${fmt(s)} s: ${fmt(ingest.docs / s)} docs/s, ${fmt(ingest.chunks / s)} chunks/s, ${fmt(mib(ingest.bytes) / s, 3)} MB/s (runs: ${ingest.ingestRuns.map((x) => fmt(x / 1000)).join(", ")} s)`],
        ["model only, same chunk texts, same batches (best of runs)", `${fmt(ingest.modelOnlyMs / 1000)} s (runs: ${ingest.modelRuns.map((x) => fmt(x / 1000)).join(", ")} s)`],
        ["pipeline overhead (ingest - model) / model", `${fmt(overhead * 100)}%`],
        ["CPU beside the model during ingest, as a share of the model threads' (main thread + other threads, each run; steadier than wall time on a shared machine)", cpuShares(ingest)],
        ["split (wall per phase; phases overlap)", `convert ${fmt(ingest.split.convertMs / 1000, 2)} s, chunk ${fmt(ingest.split.chunkMs / 1000, 2)} s, embed ${fmt(ingest.split.embedMs / 1000, 2)} s, store ${fmt(ingest.split.storeMs / 1000, 2)} s`],
        ["compiled binary `sync` (start, model load, ingest)", `${fmt(ingest.binaryMs / 1000)} s, ${fmt(oursChunksPerSecond)} chunks/s, peak RSS ${fmt(mib(ingest.binaryMaxRss), 0)} MiB`],
        ["index on disk", `${fmt(mib(ingest.indexBytes), 1)} MiB, ${fmt(mib(ingest.indexBytes) / (ingest.chunks / 1000), 2)} MiB per 1k chunks`],
        [
          "the same texts as one document: first sync / re-sync after a sentence is added to its middle",
          `${fmt(ingest.edit.firstMs / 1000)} s / ${fmt(ingest.edit.editMs / 1000, 2)} s (${fmt(ingest.edit.editMs / ingest.edit.firstMs, 3)}x): ${ingest.edit.embedded} of ${ingest.edit.chunks} chunks embedded, ${ingest.edit.reused} vectors kept`,
        ],
      ],
    ),
  );

  out.push("## Query latency (warm, topK 10, ms)");
  out.push(table(["chunks", "mode", "transport", "p50", "p95", "p99", "server peak RSS"], r.latency.map((x) => [x.chunks, x.mode, x.transport, fmt(x.p50), fmt(x.p95), fmt(x.p99), x.serverRss ? `${fmt(mib(x.serverRss), 0)} MiB` : ""])));

  out.push(...renderStartup(r.startup));

  out.push(...renderQuality(r.quality));

  if (r.withPeers) {
    out.push("## Peers (same files, same model files, same run)");
    const oursLat = lat(smallest, "hybrid");
    const rows: (string | number)[][] = [["minirag-mcp (this)", fmt(ingest.binaryMs / 1000), fmt(mib(ingest.binaryMaxRss), 0), fmt(mib(ingest.indexBytes), 1), fmt(r.startup.statusMs), fmt(r.startup.toolsListSdkMs), oursLat ? fmt(oursLat.p50) : "", ""]];
    for (const p of r.peers) {
      rows.push(p.ok ? [p.name, fmt(p.ingestMs! / 1000), fmt(mib(p.ingestMaxRss!), 0), fmt(mib(p.indexBytes!), 1), fmt(p.statusMs!), fmt(p.toolsListMs!), fmt(p.queryP50!), ""] : [p.name, "", "", "", "", "", "", `did not run: ${p.why}`]);
    }
    out.push(table(["tool", "ingest s", "ingest peak RSS MiB", "index MiB", "status ms", "tools/list ms", "query p50 ms", "note"], rows));
    out.push(`Our query p50 here is at ${smallest} chunks; the peers' is on their own ${ingest.docs}-document index.`);
    out.push("Ratios, ours ÷ theirs (below 1 is better for us):");
    out.push(
      table(
        ["peer", "ingest time", "query p50", "start (status)", "ingest RSS", "index size"],
        r.peers.filter((p) => p.ok).map((p) => [p.name, fmt(ingest.binaryMs / p.ingestMs!, 2), oursLat ? fmt(oursLat.p50 / p.queryP50!, 2) : "", fmt(r.startup.statusMs / p.statusMs!, 2), fmt(ingest.binaryMaxRss / p.ingestMaxRss!, 2), fmt(ingest.indexBytes / p.indexBytes!, 2)]),
      ),
    );
  } else out.push(`## Peers\nNot run${r.quick ? " in --quick mode (their installs and ingests take minutes)" : " (--no-peers)"}.`);

  out.push("## Targets");
  const target = (name: string, value: string, ok: boolean | null) => [name, value, ok === null ? "not measured in this run" : ok ? "met" : "NOT met"];
  const localRag = r.peers.find((p) => p.ok && p.name.startsWith("mcp-local-rag"));
  const reference = r.peers.find((p) => p.ok && p.name.startsWith("minirag-mcp (Python)"));
  const speedup = (p?: PeerFigures) => (p ? p.ingestMs! / ingest.binaryMs : null);
  const h100 = lat(100000, "hybrid");
  const h1m = lat(1000000, "hybrid");
  const linear = r.scale.length > 1 ? r.scale.at(-1)!.embeddedPerSecond / r.scale[0]!.embeddedPerSecond : null;
  out.push(
    table(
      ["target", "measured", "verdict"],
      [
        target("pipeline overhead over the model alone <= 10%", `${fmt(overhead * 100)}%`, overhead <= 0.1),
        target("ingest >= 4x mcp-local-rag", speedup(localRag) ? `${fmt(speedup(localRag)!, 2)}x` : "n/a", speedup(localRag) === null ? null : speedup(localRag)! >= 4),
        target("ingest >= 3x reference Python", speedup(reference) ? `${fmt(speedup(reference)!, 2)}x` : "n/a", speedup(reference) === null ? null : speedup(reference)! >= 3),
        target(
          `ingest throughput at ${r.scale.at(-1)?.chunks ?? "?"} chunks within 15% of ${r.scale[0]?.chunks ?? "?"}`,
          linear === null ? "n/a" : `${fmt(linear * 100, 0)}%`,
          linear === null ? null : linear >= 0.85,
        ),
        target("hybrid p50 over MCP stdio at 100k chunks <= 15 ms", h100 ? `${fmt(h100.p50)} ms` : "n/a", h100 ? h100.p50 <= 15 : null),
        target("hybrid p50 over MCP stdio at 1M chunks <= 50 ms", h1m ? `${fmt(h1m.p50)} ms` : "n/a", h1m ? h1m.p50 <= 50 : null),
        ...startupTargetRows(r.startup),
        ...memoryTargets(r.memory).map(([name, value, ok]) => target(name, value, ok)),
        ...qualityTargets(r.quality).map(([name, value, ok]) => target(name, value, ok)),
      ],
    ),
  );
  return `${out.join("\n\n")}\n`;
}
