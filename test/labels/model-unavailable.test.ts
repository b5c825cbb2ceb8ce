/**
 * The model path up to the point a GGUF file is needed (no real model is
 * reachable here): llama.cpp's prebuilt addon loads, then a missing
 * model.path or a pinned download that fails leaves model facets unset, and
 * that is reported everywhere the README says: status (unavailable with a
 * hint), ingests (labelProblem), sync (errors, never failures), filters
 * (filterNotice and filterCounts) and classify try (exit 1).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { loadLlamaScorer } from "../../src/labels/llama-scorer.ts";
import { parseTaxonomy } from "../../src/labels/parse-taxonomy.ts";
import { listFiles } from "../../src/read/list-files.ts";
import { fullStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { TINY_MODEL, failure, runCli, tempDir, testApp, writeTree } from "../helpers.ts";

const missing = join(tempDir("minirag-no-gguf-"), "absent.gguf");
const TAXONOMY = `
[model]
path = "${missing}"
temperature = 2.07

[facets.type]
values.minutes = { description = "Minutes." }
values.other = { description = "Anything else." }

[facets.project]
default = "main"
values.main = { description = "Main." }
`;

let ctx: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  ctx = await testApp();
  writeTree(ctx.root, { ".minirag/classify.toml": TAXONOMY, "a.md": "# Weekly sync\n\nNotes.", "b.md": "# Other\n\nText." });
});

describe("a model that cannot run", () => {
  test("status says unavailable and why, without loading anything", async () => {
    const labels = (await fullStatus(ctx.app)).labels as any;
    expect(labels.model).toBe("unavailable");
    expect(labels.modelHint).toBe(`The label model file ${missing} does not exist: fix model.path in classify.toml, or pin a download with repo, file, revision and sha256.`);
    expect(labels.facets.type.model).toBe(true);
    expect(labels.facets.project.model).toBe(false);
  });

  test("the llama.cpp scorer loads the prebuilt addon, then stops at the missing file with an error that names it", async () => {
    const model = parseTaxonomy(TAXONOMY).model!;
    const error = await failure(loadLlamaScorer(model, { cacheDir: tempDir(), hfEndpoint: "http://127.0.0.1:9", log: () => {} }));
    expect(error.code).toBe("MODEL_FOLDER");
    expect(error.message).toBe(`The label model file ${missing} does not exist`);
  });

  test("an ingest stores the document without the model's facet and names what is missing in labelProblem", async () => {
    const result = await ingestFile(ctx.app, join(ctx.root, "a.md"));
    expect(result.chunkCount).toBeGreaterThan(0);
    expect(result.labelProblem).toBe(`the label model could not answer type: The label model file ${missing} does not exist. Fix model.path in classify.toml, or pin a download there with repo, file, revision and sha256.`);
    const data = await ingestData(ctx.app, { source: "notes-1", content: "Minutes of the meeting." });
    expect(data.labelProblem).toContain("could not answer type");
  });

  test("sync stores every document, lists the reason once in its errors and fails nothing", async () => {
    const report = await runSync(ctx.app);
    expect(report.counts).toMatchObject({ failed: 0, relabelled: 0 });
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.error).toContain(`documents: the label model could not answer type: The label model file ${missing} does not exist`);
    const labels = (await fullStatus(ctx.app)).labels as any;
    expect(labels.facets.type.unlabelled).toBe(3);
    expect(labels.facets.project.values.main.documents).toBe(2);
  });

  test("a filter on the model's facet carries a filterNotice and counts what it left out", async () => {
    const listing = await listFiles(ctx.app, undefined, { labels: { type: "minutes" } });
    expect(listing.files).toEqual([]);
    expect(listing.filterCounts).toEqual({ unlabelled: 3, undated: 0 });
    expect(listing.filterNotice).toContain("The label model is unavailable");
    const byDefault = await listFiles(ctx.app, undefined, { labels: { project: "main" } });
    expect(byDefault.files).toHaveLength(2);
    expect(byDefault.filterNotice).toBeUndefined();
  });

  test("classify try prints what it could label, gives the reason on stderr and exits 1", () => {
    const env = { MODEL_NAME: TINY_MODEL, BASE_DIR: ctx.root, DB_PATH: ctx.app.config.dbPath };
    const result = runCli(["classify", "try", join(ctx.root, "a.md")], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`warn: type: The label model file ${missing} does not exist`);
    expect(result.stdout).toContain("type: not set (The label model file");
    expect(result.stdout).toContain("project: main (1.000, default)");
    expect(result.stdout).toMatch(/date: \d{4}-\d{2}-\d{2} \(file\)/);
  });

  test("a pinned download that fails marks the model unavailable until it works", async () => {
    const other = await testApp({ HF_ENDPOINT: "http://127.0.0.1:9", CACHE_DIR: tempDir() });
    const pinned = TAXONOMY.replace(`path = "${missing}"`, `repo = "someone/tiny-GGUF"\nfile = "tiny.gguf"\nrevision = "${"a".repeat(40)}"\nsha256 = "${"b".repeat(64)}"`);
    writeTree(other.root, { ".minirag/classify.toml": pinned, "c.md": "# C\n\nText." });
    expect(((await fullStatus(other.app)).labels as any).model).toBe("on-demand");
    const result = await ingestFile(other.app, join(other.root, "c.md"));
    expect(result.labelProblem).toContain("The label model could not be downloaded from http://127.0.0.1:9/someone/tiny-GGUF/resolve/");
    const labels = (await fullStatus(other.app)).labels as any;
    expect(labels.model).toBe("unavailable");
    expect(labels.modelHint).toContain("could not be downloaded");
  });
});
