/** The generated tables in README.md and docs/ are what scripts/docs/generate-tables.ts writes from the code today. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { configTable, documentFiles, regionNames, regionsFor, rewriteRegions, staleDocuments, toolTable } from "../../scripts/docs/generate-tables.ts";
import { ENV_NAMES } from "../../src/config/env-schema.ts";
import { computeListing } from "../../src/mcp/tool-listing.ts";
import { REPO_ROOT } from "../helpers.ts";

const read = (file: string) => readFileSync(join(REPO_ROOT, file), "utf8");

describe("generated tables", () => {
  test("every committed table equals what the script generates (run bun scripts/docs/generate-tables.ts when this fails)", async () => {
    expect(await staleDocuments({ write: false })).toEqual([]);
  });

  test("README.md carries the configuration and tool tables, docs/mcp-tools.md every tool in detail", () => {
    expect(regionNames(read("README.md"))).toEqual(["tools", "config"]);
    expect(regionNames(read("docs/mcp-tools.md"))).toEqual(["tool-details"]);
    expect(documentFiles()).toContain("docs/performance.md");
  });

  test("the configuration table has a row for every variable the schema reads, each with a meaning", () => {
    const rows = configTable("README.md").split("\n").slice(2);
    expect(rows.map((row) => row.split(" | ")[0]!.replace("| ", "").replaceAll("`", ""))).toEqual(ENV_NAMES);
    for (const row of rows) expect(row.split(" | ")[2]!.length).toBeGreaterThan(10);
    // Defaults come from the schema where it has one value, in words where it has none.
    expect(rows.find((r) => r.startsWith("| `RAG_HYBRID_WEIGHT`"))).toContain("| `0.6` |");
    expect(rows.find((r) => r.startsWith("| `RAG_GROUPING`"))).toContain("| unset |");
    expect(rows.find((r) => r.startsWith("| `MODEL_NAME`"))).toContain("`intfloat/multilingual-e5-small` for a new index");
  });

  test("links in a table are relative to the document it is written into", () => {
    expect(configTable("README.md")).toContain("[ocr.md](docs/ocr.md)");
    expect(configTable("docs/x.md")).toContain("[ocr.md](ocr.md)");
    expect(configTable("docs/x.md")).toContain("[security.md](security.md#what-ingest_url-may-reach)");
  });

  test("a variable without a description stops the script, naming it", () => {
    const shape = { DOCUMENTED: z.string().meta({ description: "has one" }), UNDOCUMENTED: z.string() };
    expect(() => configTable("README.md", shape)).toThrow("UNDOCUMENTED has no description");
  });

  test("the tool table lists every tool clients see, required arguments in bold", async () => {
    const tools = await computeListing();
    const table = toolTable(tools);
    for (const tool of tools) expect(table).toContain(`| \`${tool.name}\` | ${tool.title} |`);
    expect(table).toContain("| `query_documents` | Search the documents | **`query`**, `topK`");
    expect(table).toContain("| `status` | Index status | none |");
  });

  test("a region whose content went stale is rewritten, and an unknown region name is refused", async () => {
    const regions = await regionsFor("README.md");
    const stale = "before\n<!-- generated:config -->\n| `OLD_VAR` | 1 | gone |\n<!-- /generated -->\nafter\n";
    const rewritten = rewriteRegions(stale, regions, "x.md");
    expect(rewritten).not.toContain("OLD_VAR");
    expect(rewritten).toStartWith(`before\n<!-- generated:config -->\n\n${regions.config}\n\n<!-- /generated -->\nafter`);
    expect(rewriteRegions(rewritten, regions, "x.md")).toBe(rewritten);
    expect(() => rewriteRegions("<!-- generated:nothing -->\n<!-- /generated -->", regions, "x.md")).toThrow('x.md: unknown generated region "nothing"');
  });
});
