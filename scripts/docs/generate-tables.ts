#!/usr/bin/env bun
/**
 * Writes the tables that restate code into the documents, so they cannot
 * drift from it: the configuration table from the env schema
 * (src/config/env-schema.ts, each variable's description, default and
 * document) and the MCP tool tables from the tool listing clients see
 * (src/mcp/tools/). A document marks a region with
 * `<!-- generated:NAME -->` … `<!-- /generated -->`; everything between the
 * marks is replaced. `--check` rewrites nothing and exits 1 when a committed
 * region differs from what this script writes (test/scripts/generate-tables.test.ts).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { EnvConfig, type EnvDoc } from "../../src/config/env-schema.ts";
import { computeListing } from "../../src/mcp/tool-listing.ts";

const ROOT = resolve(import.meta.dir, "../..");
const REGION = /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated -->/g;

/** README.md and every Markdown file under docs/, as paths from the repository root. */
export function documentFiles(root = ROOT): string[] {
  const docs = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).sort();
  return ["README.md", ...docs.map((name) => `docs/${name}`)];
}

/** A link from the document at `from` (a path from the root) to `target` (a path from the root, optionally with #anchor). */
function link(from: string, target: string): string {
  const [path, anchor] = target.split("#");
  const href = relative(dirname(from), path!) + (anchor ? `#${anchor}` : "");
  const shown = path!.split("/").at(-1)!;
  return `[${shown}](${href})`;
}

/** A zod field's own default (a ZodDefault, or the input of a transform over one), if it has one. */
function schemaDefault(field: unknown): unknown {
  const def = (field as { _zod: { def: { type: string; defaultValue?: unknown; in?: unknown } } })._zod.def;
  if (def.type === "default") return def.defaultValue;
  if (def.type === "pipe" && def.in) return schemaDefault(def.in);
  return undefined;
}

/** The cell text of one table cell: pipes escaped, so a description cannot break the table. */
const cell = (text: string) => text.replaceAll("|", "\\|");

/** The configuration table: every variable the env schema reads (or the shape given), in its order. */
export function configTable(file: string, shape: Record<string, unknown> = EnvConfig.shape): string {
  const rows = Object.entries(shape).map(([name, field]) => {
    const meta = (field as { meta(): EnvDoc | undefined }).meta();
    if (!meta?.description) throw new Error(`${name} has no description in src/config/env-schema.ts: add one with doc(…)`);
    const own = schemaDefault(field);
    const shown = meta.shownDefault ?? (own === undefined ? "unset" : `\`${String(own)}\``);
    const more = meta.docPath ? `; see ${link(file, meta.docPath)}` : "";
    return `| \`${name}\` | ${cell(shown)} | ${cell(meta.description + more)} |`;
  });
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}

interface JsonSchemaObject {
  properties?: Record<string, { description?: string }>;
  required?: string[];
}

/** A tool's arguments, required ones in bold. */
function argumentList(tool: Tool): string {
  const schema = tool.inputSchema as JsonSchemaObject;
  const names = Object.keys(schema.properties ?? {});
  if (names.length === 0) return "none";
  return names.map((name) => (schema.required?.includes(name) ? `**\`${name}\`**` : `\`${name}\``)).join(", ");
}

/** What a tool may do, from its MCP annotations. */
function effect(tool: Tool): string {
  const a = tool.annotations ?? {};
  const parts = [a.readOnlyHint ? "reads the index only" : a.destructiveHint ? "writes the index and may remove from it" : "writes the index"];
  if (a.openWorldHint) parts.push("reaches the network");
  return parts.join("; ");
}

/** The short tool table: name, title and arguments (required in bold). */
export function toolTable(tools: Tool[]): string {
  const rows = tools.map((tool) => `| \`${tool.name}\` | ${cell(tool.title ?? "")} | ${argumentList(tool)} |`);
  return ["| tool | what it does | arguments (required in bold) |", "|---|---|---|", ...rows].join("\n");
}

/** Each tool as its listing describes it: the description clients read, what it may change, and every argument. */
export function toolDetails(tools: Tool[]): string {
  return tools
    .map((tool) => {
      const schema = tool.inputSchema as JsonSchemaObject;
      const args = Object.entries(schema.properties ?? {}).map(([name, prop]) => {
        const required = schema.required?.includes(name) ? " (required)" : "";
        return `- \`${name}\`${required}: ${prop.description ?? ""}`.trimEnd();
      });
      return [`### \`${tool.name}\`: ${tool.title ?? ""}`, "", tool.description ?? "", "", `It ${effect(tool)}.`, ...(args.length ? ["", ...args] : [])].join("\n");
    })
    .join("\n\n");
}

/** Every region's content for the document at `file`. */
export async function regionsFor(file: string): Promise<Record<string, string>> {
  const tools = await computeListing();
  return { config: configTable(file), tools: toolTable(tools), "tool-details": toolDetails(tools) };
}

/** The text with each marked region rewritten; an unknown region name is an error naming the file. */
export function rewriteRegions(text: string, regions: Record<string, string>, file: string): string {
  return text.replace(REGION, (_whole, name: string) => {
    const content = regions[name];
    if (content === undefined) throw new Error(`${file}: unknown generated region "${name}" (known: ${Object.keys(regions).join(", ")})`);
    return `<!-- generated:${name} -->\n\n${content}\n\n<!-- /generated -->`;
  });
}

/** The region names a text marks, in order. */
export function regionNames(text: string): string[] {
  return [...text.matchAll(REGION)].map((m) => m[1]!);
}

/** Each document whose committed regions differ from the generated ones (with `write`, rewritten in place). */
export async function staleDocuments(options: { write: boolean; root?: string }): Promise<string[]> {
  const root = options.root ?? ROOT;
  const stale: string[] = [];
  for (const file of documentFiles(root)) {
    const path = join(root, file);
    const text = readFileSync(path, "utf8");
    const rewritten = rewriteRegions(text, await regionsFor(file), file);
    if (rewritten === text) continue;
    stale.push(file);
    if (options.write) writeFileSync(path, rewritten);
  }
  return stale;
}

if (import.meta.main) {
  const check = process.argv.includes("--check");
  const stale = await staleDocuments({ write: !check });
  for (const file of stale) console.log(`${check ? "out of date" : "rewrote"}: ${file}`);
  if (check && stale.length > 0) {
    console.error("Run bun scripts/docs/generate-tables.ts to rewrite the generated tables.");
    process.exit(1);
  }
}
