/**
 * The release targets. Intel macOS is not one: LanceDB publishes no
 * darwin-x64 addon after 0.22.3 and onnxruntime-node 1.30 ships none.
 */
export interface Target {
  /** The name in archive and folder names: minirag-mcp-<version>-<name>. */
  name: string;
  bunTarget: Bun.Build.CompileTarget;
  platform: "linux" | "darwin" | "win32";
  arch: "x64" | "arm64";
  /** The napi-rs suffix of LanceDB's platform package and addon. */
  lancedb: string;
  /** What onnxruntime_binding.node loads besides itself; nothing else from the package is shipped. */
  ortLibraries: string[];
}

export const TARGETS: Target[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", platform: "linux", arch: "x64", lancedb: "linux-x64-gnu", ortLibraries: ["libonnxruntime.so.1"] },
  // Bun's runtime for CPUs without AVX2. LanceDB's addon is the same file as linux-x64's (there is no other), see docs/building.md.
  { name: "linux-x64-baseline", bunTarget: "bun-linux-x64-baseline", platform: "linux", arch: "x64", lancedb: "linux-x64-gnu", ortLibraries: ["libonnxruntime.so.1"] },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", platform: "linux", arch: "arm64", lancedb: "linux-arm64-gnu", ortLibraries: ["libonnxruntime.so.1"] },
  { name: "darwin-arm64", bunTarget: "bun-darwin-arm64", platform: "darwin", arch: "arm64", lancedb: "darwin-arm64", ortLibraries: ["libonnxruntime.1.dylib"] },
  { name: "windows-x64", bunTarget: "bun-windows-x64", platform: "win32", arch: "x64", lancedb: "win32-x64-msvc", ortLibraries: ["onnxruntime.dll"] },
];

/** The target this machine runs natively (the AVX2 one on x64 Linux). */
export function hostTarget(platform = process.platform, arch = process.arch): string {
  return `${platform === "win32" ? "windows" : platform}-${arch}`;
}

/** Targets named by --target: one name, a comma list, or "all"; the host when absent. */
export function pickTargets(spec: string | undefined): Target[] {
  if (spec === "all") return TARGETS;
  const names = (spec ?? hostTarget()).split(",").map((s) => s.trim());
  return names.map((name) => {
    const target = TARGETS.find((t) => t.name === name);
    if (!target) throw new Error(`unknown target ${name}; known: ${TARGETS.map((t) => t.name).join(", ")}, all`);
    return target;
  });
}

export const exeName = (target: Target) => (target.platform === "win32" ? "minirag-mcp.exe" : "minirag-mcp");
export const releaseName = (version: string, target: Target) => `minirag-mcp-${version}-${target.name}`;
