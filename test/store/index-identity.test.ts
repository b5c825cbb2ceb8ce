/**
 * An index knows the model that built it: on real LanceDB with copies of the
 * tiny model whose files or profile differ (same 32-dimensional width, so the
 * width check alone would let them mix).
 */
import { describe, expect, test } from "bun:test";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { fullStatus } from "../../src/status.ts";
import { ensureWriteModel, MODEL_KEY, readIndexModel, type IndexModel } from "../../src/store/index-identity.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { tinyCopy } from "../embed/model-copies.ts";
import { failure, testApp, writeTree } from "../helpers.ts";

/** The tiny model with one more byte in tokenizer.json: it loads and embeds alike, but its files are not the same. */
function otherModel(): string {
  const dir = tinyCopy("tiny-other");
  appendFileSync(join(dir, "tokenizer.json"), "\n");
  return dir;
}

/** An index of two files built with `model`; returns its paths and the building app's log. */
async function built(model: string) {
  const { app, root, logs } = await testApp({ MODEL_NAME: model });
  writeTree(root, { "a.md": "# Alpha\n\nThe lighthouse keeper's log.", "b.md": "# Beta\n\nA warehouse inventory." });
  await runSync(app);
  return { app, root, logs, dbPath: app.config.dbPath };
}

/** Another app (another process, in effect) over the same roots and index, with its own model. */
async function sameIndex(model: string, root: string, dbPath: string) {
  return testApp({ MODEL_NAME: model, DB_PATH: dbPath }, [root]);
}

describe("an index records its model", () => {
  test("a new index records the model that built it without announcing an adoption, and status shows it", async () => {
    const model = tinyCopy("tiny-a");
    const { app, logs } = await built(model);
    const status = await fullStatus(app);
    expect(status.indexModel).toMatchObject({ name: model, dimensions: 32, queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength: 128 });
    expect(status.indexModel!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(status.indexModelNote).toBeUndefined();
    expect(logs.filter((l) => l.includes("did not record"))).toEqual([]);
  });

  test("a copy of the model folder elsewhere is the same model: queries and syncs go on", async () => {
    const { root, dbPath } = await built(tinyCopy("tiny-a"));
    const { app } = await sameIndex(tinyCopy("tiny-moved"), root, dbPath);
    expect((await queryDocuments(app, { query: "lighthouse" })).results.length).toBeGreaterThan(0);
    writeTree(root, { "c.md": "# Gamma\n\nMore text." });
    expect((await runSync(app)).counts.ingested).toBe(1);
  });

  test("a query asks for the latest version once: the model record is checked at the version its snapshot reads", async () => {
    const { app } = await built(tinyCopy("tiny-a"));
    await queryDocuments(app, { query: "lighthouse" });
    const live = (await app.store.open())!;
    // Asks of the live table (on S3 each is a request); a snapshot's pinned table knows its version.
    const table = Object.getPrototypeOf(live) as { version(): Promise<number> };
    const version = table.version;
    let asks = 0;
    table.version = function (this: unknown) {
      if (this === live) asks++;
      return version.call(this);
    };
    try {
      for (const query of ["lighthouse", "warehouse"]) {
        asks = 0;
        expect((await queryDocuments(app, { query })).results.length).toBeGreaterThan(0);
        expect({ query, asks }).toEqual({ query, asks: 1 });
      }
    } finally {
      table.version = version;
    }
  });
});

describe("a different model is refused", () => {
  test("a query under other model files names the model that built the index and the three ways out", async () => {
    const model = tinyCopy("tiny-a");
    const { root, dbPath } = await built(model);
    const { app } = await sameIndex(otherModel(), root, dbPath);
    const error = await failure(queryDocuments(app, { query: "lighthouse" }));
    expect(error.code).toBe("INDEX");
    expect(error.message).toContain(`was built with the model ${model} (fingerprint `);
    expect(error.message).toContain("tiny-other");
    expect(error.hint).toContain(`MODEL_NAME=${model}`);
    expect(error.hint).toContain("new folder");
    expect(error.hint).toContain(`delete ${dbPath}`);
  });

  test("an index deleted and built again with another model under an app that searched it is checked again, though its version is the one checked before", async () => {
    const model = tinyCopy("tiny-a");
    const { app, root, dbPath } = await built(model);
    expect((await queryDocuments(app, { query: "lighthouse" })).results.length).toBeGreaterThan(0);
    const version = await (await app.store.open())!.version();
    rmSync(dbPath, { recursive: true });
    const other = otherModel();
    await runSync((await sameIndex(other, root, dbPath)).app);
    expect(await (await app.store.open())!.version()).toBe(version);
    const error = await failure(queryDocuments(app, { query: "lighthouse" }));
    expect(error.message).toContain(`was built with the model ${other} (fingerprint `);
  });

  test("a sync under another model is refused before it writes, and the index keeps its rows and its model", async () => {
    const model = tinyCopy("tiny-a");
    const { app: first, root, dbPath } = await built(model);
    const rows = await first.store.countRows();
    const { app } = await sameIndex(otherModel(), root, dbPath);
    writeTree(root, { "c.md": "# Gamma\n\nA new file." });
    const error = await failure(runSync(app));
    expect(error.message).toContain(`was built with the model ${model}`);
    expect(await first.store.countRows()).toBe(rows);
    expect((await first.store.recordedModel())!.name).toBe(model);
  });

  test("the same files with other prefixes are another model, and the message says so", async () => {
    const { root, dbPath } = await built(tinyCopy("tiny-a"));
    const { app } = await sameIndex(tinyCopy("tiny-prefixed", { queryPrefix: "query: ", passagePrefix: "passage: " }), root, dbPath);
    const error = await failure(queryDocuments(app, { query: "lighthouse" }));
    expect(error.message).toContain("the same model files with another profile");
  });
});

describe("an index from before model records", () => {
  test("is searched as before, adopts the current model on the next write, and says so once", async () => {
    const { app: old, root, dbPath } = await built(tinyCopy("tiny-a"));
    // What an index written by the previous release looks like: no model in the vector column's metadata.
    const table = await (await (await loadLanceDb()).connect(dbPath)).openTable("chunks");
    await table.updateFieldMetadata([{ path: "vector", metadata: { [MODEL_KEY]: null } }]);
    expect(await old.store.recordedModel()).toBeNull();
    expect((await fullStatus(old)).indexModelNote).toContain("next sync or ingest records the model in use");

    const other = otherModel();
    const { app, logs } = await sameIndex(other, root, dbPath);
    expect((await queryDocuments(app, { query: "lighthouse" })).results.length).toBeGreaterThan(0);
    writeTree(root, { "a.md": "# Alpha\n\nThe lighthouse keeper's second log." });
    await runSync(app);
    writeTree(root, { "b.md": "# Beta\n\nA warehouse inventory, counted again." });
    await runSync(app);
    const announced = logs.filter((l) => l.includes("did not record its embedding model"));
    expect(announced).toHaveLength(1);
    expect(announced[0]).toContain(other);
    expect(announced[0]).toContain("32-dimensional vectors match");
    const status = await fullStatus(app);
    expect(status.indexModel!.name).toBe(other);
    expect(status.indexModelNote).toBeUndefined();
  });

  test("a record that does not parse counts as none and is replaced on the next write", async () => {
    const { root, dbPath } = await built(tinyCopy("tiny-a"));
    const table = await (await (await loadLanceDb()).connect(dbPath)).openTable("chunks");
    await table.updateFieldMetadata([{ path: "vector", metadata: { [MODEL_KEY]: "{not json" } }]);
    const model = tinyCopy("tiny-b");
    const { app } = await sameIndex(model, root, dbPath);
    writeFileSync(join(root, "a.md"), "# Alpha\n\nChanged.");
    await runSync(app);
    expect((await app.store.recordedModel())!.name).toBe(model);
  });
});

describe("two writers recording at once", () => {
  test("with different models of one width, exactly one records its model and the other is refused", async () => {
    const lance = await loadLanceDb();
    const model = (name: string): IndexModel => ({ name, fingerprint: name, dimensions: 32, queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength: 128 });
    for (let round = 0; round < 5; round++) {
      const { dbPath } = await built(tinyCopy("tiny-a"));
      const first = await (await lance.connect(dbPath, { readConsistencyInterval: 0 })).openTable("chunks");
      await first.updateFieldMetadata([{ path: "vector", metadata: { [MODEL_KEY]: null } }]);
      // Two handles, as two processes would hold, both finding no record.
      const second = await (await lance.connect(dbPath, { readConsistencyInterval: 0 })).openTable("chunks");
      const outcomes = await Promise.allSettled([
        ensureWriteModel(first, dbPath, { current: model("one"), log: () => {} }),
        ensureWriteModel(second, dbPath, { current: model("two"), log: () => {} }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      const winner = outcomes[0]!.status === "fulfilled" ? "one" : "two";
      expect(readIndexModel(await first.schema())!.name).toBe(winner);
      const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason.message).toContain(`was built with the model ${winner}`);
    }
  });
});
