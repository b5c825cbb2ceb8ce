/**
 * The tools/list answer without evaluating the tools. Each tool module
 * imports its implementation (search, sync, ingest, the store, Arrow, the
 * tokenizer), which is most of the server's module evaluation; tools/list
 * only needs the listing. scripts/build.ts computes it from the same sources
 * and defines it into the binary, so a compiled server answers tools/list
 * from a constant and evaluates the tools on the first call; from source it
 * is computed on first use.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

declare const MINIRAG_TOOL_LISTING: string | undefined;

let listing: Promise<Tool[]> | undefined;

/** The listing of every tool, as tools/list shows it. */
export function toolListings(): Promise<Tool[]> {
  listing ??= typeof MINIRAG_TOOL_LISTING === "string" ? Promise.resolve(JSON.parse(MINIRAG_TOOL_LISTING) as Tool[]) : computeListing();
  return listing;
}

/** The listing from the tool definitions themselves (the build defines this into the binary). */
export async function computeListing(): Promise<Tool[]> {
  const [{ TOOLS }, { toolListing }] = await Promise.all([import("./tools/index.ts"), import("./define-tool.ts")]);
  return TOOLS.map(toolListing);
}
