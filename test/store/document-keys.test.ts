import { describe, expect, test } from "bun:test";
import { Field, Int32, LargeUtf8, Schema, Utf8, makeVector, vectorFromArray, type Vector } from "apache-arrow";
import { connect, makeArrowTable } from "@lancedb/lancedb";
import { readDocumentKeys, utf8Views } from "../../src/store/document-keys.ts";
import { readSignatureBytes, readSignatureKeys } from "../../src/store/signatures.ts";
import { join } from "node:path";
import { runSync } from "../../src/sync/run-sync.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

const text = (views: Uint8Array[]) => views.map((v) => new TextDecoder().decode(v));
const values = (column: Vector) => Array.from({ length: column.length }, (_, i) => column.get(i) as string);

describe("a string column's values as views of their bytes", () => {
  const words = ["alpha", "", "бета", "gamma-delta", "ε"];

  test("read as Arrow reads them, for Utf8 and LargeUtf8, in one chunk or several", () => {
    for (const type of [new Utf8(), new LargeUtf8()]) {
      const whole = vectorFromArray(words, type);
      expect(text(utf8Views(whole))).toEqual(words);
      const chunked = whole.slice(0, 2).concat(whole.slice(2));
      expect(chunked.data.length).toBe(2);
      expect(text(utf8Views(chunked))).toEqual(words);
    }
  });

  test("a chunk cut from a larger one (non-zero offset) gives its own rows, not the ones before them", () => {
    for (const type of [new Utf8(), new LargeUtf8()]) {
      const cut = vectorFromArray(words, type).slice(1, 4);
      expect(cut.data[0]!.offset).toBe(1);
      expect(text(utf8Views(cut))).toEqual(values(cut));
      expect(values(cut)).toEqual(["", "бета", "gamma-delta"]);
      // Data.slice(offset, length): the last three rows.
      const data = makeVector(vectorFromArray(words, type).data[0]!.slice(2, 3));
      expect(text(utf8Views(data))).toEqual(["бета", "gamma-delta", "ε"]);
    }
  });
});

describe("document keys", () => {
  const schema = new Schema(["source", "content_hash", "ingested_at", "minhash", "doc_date"].map((name) => new Field(name, new Utf8(), name !== "source"))).fields.concat(new Field("chunk_index", new Int32(), false));
  const row = (source: string, hash: string, at: string, minhash: string | null, date: string | null, chunk = 0) => ({ source, content_hash: hash, ingested_at: at, minhash, doc_date: date, chunk_index: chunk });

  async function tableOf(rows: ReturnType<typeof row>[]) {
    const db = await connect(tempDir("minirag-keys-"));
    return db.createTable("chunks", makeArrowTable(rows, { schema: new Schema(schema) }));
  }

  test("one per chunk-0 row holding the value; it changes with the content hash, the ingest time and a named extra column, and only with them", async () => {
    const table = await tableOf([
      row("/a.md", "h1", "t1", "sig", null),
      row("/a.md", "h1", "t1", null, null, 1),
      row("/b.md", "h1", "t1", "sig", "2025-01-01"),
      row("/c.md", "h1", "t1", null, null),
    ]);
    const keys = async (extra: string[] = ["doc_date"]) => new Map((await readDocumentKeys(table, [{ valueColumn: "minhash", extra }]))[0]!.map((k) => [k.source, k.key]));
    const before = await keys();
    // Chunk 1 and a row without the value have no key.
    expect([...before.keys()].sort()).toEqual(["/a.md", "/b.md"]);
    // Same hash and time: only the date sets a and b apart, and without it as an extra they are equal.
    expect(before.get("/a.md")).not.toBe(before.get("/b.md"));
    const plain = await keys([]);
    expect(plain.get("/a.md")).toBe(plain.get("/b.md"));
    await table.update({ where: "source = '/b.md'", values: { doc_date: "2025-02-01" } });
    expect((await keys()).get("/b.md")).not.toBe(before.get("/b.md"));
    expect((await keys()).get("/a.md")).toBe(before.get("/a.md"));
    await table.update({ where: "source = '/a.md'", values: { ingested_at: "t2" } });
    expect((await keys()).get("/a.md")).not.toBe(before.get("/a.md"));
    // A column the key does not name changes nothing; a missing one is left out.
    const dated = (await keys()).get("/b.md");
    await table.update({ where: "source = '/b.md'", values: { minhash: "other" } });
    expect((await keys()).get("/b.md")).toBe(dated);
    expect(await readDocumentKeys(table, [{ valueColumn: "doc_vector" }])).toEqual([[]]);
    expect((await readDocumentKeys(table, [{ valueColumn: "minhash", extra: ["no_such_column"] }]))[0]!.length).toBe(2);
  });

  test("several values in one scan: each gets the keys it gets alone, only for the rows that hold it", async () => {
    const table = await tableOf([
      row("/a.md", "h1", "t1", "sig", null),
      row("/b.md", "h2", "t1", "sig", "2025-01-01"),
      row("/c.md", "h3", "t2", null, "2025-03-01"),
      row("/d.md", "h4", "t2", null, null),
    ]);
    const signatures = { valueColumn: "minhash", extra: ["doc_date"] };
    const dates = { valueColumn: "doc_date" };
    const absent = { valueColumn: "doc_vector" };
    const [bySignature, byDate, none] = await readDocumentKeys(table, [signatures, dates, absent]);
    expect(bySignature).toEqual((await readDocumentKeys(table, [signatures]))[0]!);
    expect(byDate).toEqual((await readDocumentKeys(table, [dates]))[0]!);
    expect(bySignature!.map((k) => k.source).sort()).toEqual(["/a.md", "/b.md"]);
    expect(byDate!.map((k) => k.source).sort()).toEqual(["/b.md", "/c.md"]);
    expect(none).toEqual([]);
  });

  test("everyRow: a key for every chunk-0 row, holding the value or not, beside a value keyed only where it is held, in one scan", async () => {
    const table = await tableOf([
      row("/a.md", "h1", "t1", "sig", null),
      row("/a.md", "h1", "t1", null, null, 1),
      row("/b.md", "h2", "t1", null, null),
    ]);
    const every = { valueColumn: "minhash", everyRow: true };
    const [all, held] = await readDocumentKeys(table, [every, { valueColumn: "minhash" }]);
    expect(all!.map((k) => k.source).sort()).toEqual(["/a.md", "/b.md"]);
    expect(held!.map((k) => k.source)).toEqual(["/a.md"]);
    // The same keys as a scan of the held rows alone gives them.
    expect(all!.find((k) => k.source === "/a.md")!.key).toBe(held![0]!.key);
    // A column the table lacks still gives nothing.
    expect(await readDocumentKeys(table, [{ valueColumn: "doc_vector", everyRow: true }])).toEqual([[]]);
  });

  test("a signature read gives each row the key the key scan gives it, with a date column and without one", async () => {
    const rows = Array.from({ length: 7 }, (_, i) => row(`/d/${i}.md`, `h${i % 3}`, `t${i % 2}`, `sig${i}`, i % 2 ? "2025-01-0" + (i % 9) : null));
    const dated = await tableOf(rows);
    const undated = await tableOf(rows);
    await undated.dropColumns(["doc_date"]);
    for (const table of [dated, undated]) {
      const scanned = new Map((await readSignatureKeys(table)).map((k) => [k.source, k.key]));
      for (const sources of ["all", ["/d/1.md", "/d/4.md"]] as const) {
        const read = await readSignatureBytes(table, sources === "all" ? "all" : [...sources]);
        expect(read.sources.length).toBe(sources === "all" ? 7 : 2);
        read.sources.forEach((source, i) => expect(read.keys[i]).toBe(scanned.get(source)!));
      }
    }
    // The date is part of the key: the same rows without it have other keys where a date was set.
    const withDate = new Map((await readSignatureKeys(dated)).map((k) => [k.source, k.key]));
    const withoutDate = new Map((await readSignatureKeys(undated)).map((k) => [k.source, k.key]));
    expect(withDate.get("/d/1.md")).not.toBe(withoutDate.get("/d/1.md"));
  });
});

describe("a snapshot's keys", () => {
  test("read in one scan, equal what the live store reads for each cache alone", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# Alpha\n\nThe lighthouse keeper's log, kept nightly.", "b.md": "# Beta\n\nA warehouse inventory of rope and tar.", "c.md": "# Gamma\n\nMarsh birds at dusk." });
    await runSync(app);
    const view = await app.store.snapshot();
    const signatures = await view.signatureKeys();
    const vectors = await view.documentVectorKeys();
    expect(signatures.map((k) => k.source).sort()).toEqual(["a.md", "b.md", "c.md"].map((f) => join(root, f)));
    expect(vectors.length).toBeGreaterThan(0);
    expect(signatures).toEqual(await app.store.signatureKeys());
    expect(vectors).toEqual(await app.store.documentVectorKeys());
  });
});
