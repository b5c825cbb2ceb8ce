/**
 * The local copy reads of an S3 index use (store/object-mirror.ts), against a
 * "bucket" that is a real LanceDB folder served through the StoreObjects
 * interface: the copy opens in LanceDB at the version it copied and gives its
 * rows, takes no manifest past that version, deletes files the bucket stopped
 * listing one refresh later, and a failed copy leaves reads on the store.
 * scripts/accept/team-index.test.ts runs it against moto.
 */
import { describe, expect, test } from "bun:test";
import { connect } from "@lancedb/lancedb";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { FIRST_COPY_WAIT_MS, ObjectMirror, RETRY_MS } from "../../src/store/object-mirror.ts";
import type { StoreObjects } from "../../src/store/object-api.ts";
import { folderBucket } from "./folder-bucket.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { fakeClock } from "../fake-clock.ts";
import { tempDir, waitFor } from "../helpers.ts";

async function bucketWithVersions(): Promise<{ folder: string; versions: number[] }> {
  const folder = tempDir("minirag-bucket-");
  const db = await connect(folder);
  const table = await db.createTable("chunks", [{ id: "a", text: "first row" }]);
  const versions = [await table.version()];
  await table.add([{ id: "b", text: "second row" }]);
  versions.push(await table.version());
  await table.add([{ id: "c", text: "third row" }]);
  versions.push(await table.version());
  return { folder, versions };
}

const rowsAt = async (folder: string, version: number) => {
  const table = await (await connect(folder)).openTable("chunks");
  await table.checkout(version);
  return ((await table.query().toArray()) as { id: string }[]).map((r) => r.id).sort();
};

/** Makes the bucket's list or download calls hang until the returned function is called. */
function holdUntilReleased(bucket: StoreObjects, call: "list" | "download"): () => void {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const original = bucket[call].bind(bucket) as (...args: unknown[]) => Promise<unknown>;
  (bucket as unknown as Record<string, unknown>)[call] = async (...args: unknown[]) => {
    await held;
    return original(...args);
  };
  return release;
}

/** A new reader's first snapshot of `version`, waiting for its first copy on a clock the test moves; its first check is set. */
async function firstQueryWaiting(bucket: StoreObjects, version: number) {
  const clock = fakeClock();
  const copy = new ObjectMirror(bucket, tempDir("minirag-copy-"), "chunks", () => {}, true, clock);
  let settled = false;
  const answer = copy.atFirst(version).finally(() => (settled = true));
  for (let turn = 0; turn < 1000 && clock.pending === 0; turn++) await Promise.resolve();
  expect(clock.pending).toBe(1);
  const stillWaiting = async () => {
    for (let turn = 0; turn < 1000 && !settled; turn++) await Promise.resolve();
    return !settled;
  };
  return { clock, copy, answer, stillWaiting };
}

describe("the local copy of an index on S3", () => {
  test("a version is copied in the background while reads stay on the store, then read from the copy, rows and all", async () => {
    const { folder, versions } = await bucketWithVersions();
    const copy = new ObjectMirror(folderBucket(folder), tempDir("minirag-copy-"), "chunks", () => {});
    const middle = versions[1]!;
    expect(await copy.at(middle)).toBeNull();
    await copy.settled();
    const local = await copy.at(middle);
    expect(local).not.toBeNull();
    const table = await local!.openTable("chunks");
    await table.checkout(middle);
    expect(((await table.query().toArray()) as { id: string }[]).map((r) => r.id).sort()).toEqual(["a", "b"]);
    expect(await rowsAt(copy.folder, middle)).toEqual(await rowsAt(folder, middle));
    // Nothing past the version copied: the copy's latest is that version.
    expect(await (await (await connect(copy.folder)).openTable("chunks")).version()).toBe(middle);
    expect(await copy.at(versions[2]!)).toBeNull();
    await copy.settled();
    expect(await rowsAt(copy.folder, versions[2]!)).toEqual(["a", "b", "c"]);
  });

  test("another process finds the copy on disk and reads it at once", async () => {
    const { folder, versions } = await bucketWithVersions();
    const at = tempDir("minirag-copy-");
    const first = new ObjectMirror(folderBucket(folder), at, "chunks", () => {});
    await first.at(versions[2]!);
    await first.settled();
    const bucket = folderBucket(folder);
    expect(await new ObjectMirror(bucket, at, "chunks", () => {}).at(versions[2]!)).not.toBeNull();
    // One listing of _versions/: the copy is still of the table in the store.
    expect(bucket.state.requests).toBe(1);
  });

  test("a table deleted from the store and built again with as many versions: the next process drops the copy at its first answer, says so, and copies anew", async () => {
    const { folder, versions } = await bucketWithVersions();
    const at = tempDir("minirag-copy-");
    const first = new ObjectMirror(folderBucket(folder), at, "chunks", () => {});
    await first.at(versions[2]!);
    await first.settled();
    rmSync(folder, { recursive: true });
    const db = await connect(folder);
    const rebuilt = await db.createTable("chunks", [{ id: "x", text: "another table" }]);
    await rebuilt.add([{ id: "y", text: "its second row" }]);
    await rebuilt.add([{ id: "z", text: "its third row" }]);
    expect(await rebuilt.version()).toBe(versions[2]!);
    const lines: string[] = [];
    const next = new ObjectMirror(folderBucket(folder), at, "chunks", (line) => lines.push(line));
    expect(await next.at(versions[2]!)).toBeNull();
    expect(next.replacements).toBe(1);
    expect(lines).toEqual([expect.stringContaining("was replaced in the store (deleted and built again): its local copy is dropped and made anew")]);
    await next.settled();
    expect(await next.at(versions[2]!)).not.toBeNull();
    expect(await rowsAt(at, versions[2]!)).toEqual(["x", "y", "z"]);
  });

  test("after a replacement one process found, another's copy takes the new table's manifests though the old ones have their sizes, and reads its rows", async () => {
    const folder = tempDir("minirag-bucket-");
    // Rows of the same lengths: manifests of the same sizes in both tables.
    const build = async (letters: string[]) => {
      const table = await (await connect(folder)).createTable("chunks", [{ id: letters[0]!, text: `row ${letters[0]}` }]);
      for (const letter of letters.slice(1)) await table.add([{ id: letter, text: `row ${letter}` }]);
      return table.version();
    };
    const version = await build(["a", "b", "c"]);
    const at = tempDir("minirag-copy-");
    const first = new ObjectMirror(folderBucket(folder), at, "chunks", () => {});
    await first.at(version);
    await first.settled();
    rmSync(folder, { recursive: true });
    expect(await build(["x", "y", "z"])).toBe(version);
    // A CLI command finds the replacement (it copies nothing); a server started after it makes the copy.
    const command = new ObjectMirror(folderBucket(folder), at, "chunks", () => {}, false);
    expect(await command.at(version)).toBeNull();
    expect(command.replacements).toBe(1);
    const server = new ObjectMirror(folderBucket(folder), at, "chunks", () => {});
    expect(await server.at(version)).toBeNull();
    await server.settled();
    expect(await server.at(version)).not.toBeNull();
    expect(await rowsAt(at, version)).toEqual(["x", "y", "z"]);
    expect(server.replacements).toBe(0);
  });

  test("a process serving its copy asks the store again at most every 10 s, and drops the copy once the table was replaced", async () => {
    const { folder, versions } = await bucketWithVersions();
    const clock = fakeClock();
    const bucket = folderBucket(folder);
    const copy = new ObjectMirror(bucket, tempDir("minirag-copy-"), "chunks", () => {}, true, clock);
    await copy.at(versions[2]!);
    await copy.settled();
    expect(await copy.at(versions[2]!)).not.toBeNull();
    const asked = bucket.state.requests;
    expect(await copy.at(versions[2]!)).not.toBeNull();
    expect(bucket.state.requests).toBe(asked);
    // The manifest of the version served written anew (a table built again): seen at the first check 10 s on.
    const manifests = join(folder, "chunks.lance", "_versions");
    const newest = readdirSync(manifests).filter((n) => n.endsWith(".manifest")).sort()[0]!;
    const bytes = await Bun.file(join(manifests, newest)).arrayBuffer();
    rmSync(join(manifests, newest));
    await Bun.write(join(manifests, newest), bytes);
    clock.advance(10_000);
    // That answer still reads the copy: the check runs beside it.
    expect(await copy.at(versions[2]!)).not.toBeNull();
    await waitFor(() => copy.replacements === 1, 5_000, "the check to drop the copy");
    expect(await copy.at(versions[2]!)).toBeNull();
  });

  test("a table built anew with fewer versions than the copy holds is seen by the first answer that asks for a version below the copy's a second on, not ten (found by a probe)", async () => {
    const { folder, versions } = await bucketWithVersions();
    const clock = fakeClock();
    const copy = new ObjectMirror(folderBucket(folder), tempDir("minirag-copy-"), "chunks", () => {}, true, clock);
    await copy.at(versions[2]!);
    await copy.settled();
    expect(await copy.at(versions[2]!)).not.toBeNull();
    rmSync(folder, { recursive: true });
    const rebuilt = await (await connect(folder)).createTable("chunks", [{ id: "x", text: "another table" }]);
    expect(await rebuilt.version()).toBeLessThan(versions[2]!);
    // A second on, not the ten of the routine check: the version going back says the table is another.
    clock.advance(1_000);
    expect(await copy.at(await rebuilt.version())).toBeNull();
    expect(copy.replacements).toBe(1);
  });

  test("a process that does not fill (a CLI command) reads a copy already made, and starts none of a version it lacks", async () => {
    const { folder, versions } = await bucketWithVersions();
    const at = tempDir("minirag-copy-");
    const server = new ObjectMirror(folderBucket(folder), at, "chunks", () => {});
    await server.at(versions[1]!);
    await server.settled();
    const bucket = folderBucket(folder);
    const command = new ObjectMirror(bucket, at, "chunks", () => {}, false);
    expect(await command.at(versions[1]!)).not.toBeNull();
    expect(await command.at(versions[2]!)).toBeNull();
    await command.settled();
    // The one listing of _versions/ that checks the copy is still of the table in the store.
    expect(bucket.state.requests).toBe(1);
  });

  test("files the bucket stopped listing are deleted from the copy at the refresh after the one that noticed", async () => {
    const { folder, versions } = await bucketWithVersions();
    const copy = new ObjectMirror(folderBucket(folder), tempDir("minirag-copy-"), "chunks", () => {});
    await copy.at(versions[2]!);
    await copy.settled();
    const dataFiles = () => readdirSync(join(copy.folder, "chunks.lance", "data")).length;
    expect(dataFiles()).toBe(3);
    const table = await (await connect(folder)).openTable("chunks");
    await table.optimize({ cleanupOlderThan: new Date(Date.now() + 1000) });
    const compacted = await table.version();
    expect(readdirSync(join(folder, "chunks.lance", "data")).length).toBe(1);
    await copy.at(compacted);
    await copy.settled();
    expect(dataFiles()).toBe(4);
    await table.add([{ id: "d", text: "fourth row" }]);
    await copy.at(await table.version());
    await copy.settled();
    expect(dataFiles()).toBe(2);
    expect(await rowsAt(copy.folder, await table.version())).toEqual(["a", "b", "c", "d"]);
  });

  test("a copy that fails is logged once, leaves reads on the store, and is tried again after RETRY_MS", async () => {
    const { folder, versions } = await bucketWithVersions();
    const bucket = folderBucket(folder);
    const lines: string[] = [];
    const clock = fakeClock();
    const copy = new ObjectMirror(bucket, tempDir("minirag-copy-"), "chunks", (line) => lines.push(line), true, clock);
    bucket.state.fail = true;
    expect(await copy.at(versions[1]!)).toBeNull();
    await copy.settled();
    expect(await copy.at(versions[1]!)).toBeNull();
    await copy.settled();
    expect(lines).toEqual([`warn: reads of s3://bucket/index (${folder}) stay on the store: the local copy of version ${versions[1]} failed (The object store at http://127.0.0.1:9 cannot be reached)`]);
    bucket.state.fail = false;
    expect(await copy.at(versions[2]!)).toBeNull();
    await copy.settled();
    expect(await copy.at(versions[2]!)).toBeNull();
    clock.advance(RETRY_MS + 1);
    expect(await copy.at(versions[2]!)).toBeNull();
    await copy.settled();
    expect(await copy.at(versions[2]!)).not.toBeNull();
    rmSync(folder, { recursive: true });
  });

  test("a new reader's first snapshot waits for its first copy and reads it; once it holds one, a newer version is copied behind the store's reads", async () => {
    const { folder, versions } = await bucketWithVersions();
    const bucket = folderBucket(folder);
    // A clock never moved: the wait ends because the copy did, not by a timer.
    const copy = new ObjectMirror(bucket, tempDir("minirag-copy-"), "chunks", () => {}, true, fakeClock());
    const local = await copy.atFirst(versions[1]!);
    expect(local).not.toBeNull();
    const table = await local!.openTable("chunks");
    await table.checkout(versions[1]!);
    expect(await table.countRows()).toBe(2);
    expect(await copy.atFirst(versions[2]!)).toBeNull();
    await copy.settled();
    expect(await copy.atFirst(versions[2]!)).not.toBeNull();
  });

  test("opening the index starts the copy of its version before any question, in a process that fills; one that does not starts none", async () => {
    for (const fill of [true, false]) {
      const { folder, versions } = await bucketWithVersions();
      const bucket = folderBucket(folder);
      const store = new ChunkStore(folder);
      store.localCopy = new ObjectMirror(bucket, tempDir("minirag-copy-"), "chunks", () => {}, fill, fakeClock());
      expect(await store.hasTable()).toBe(true);
      await store.localCopy.settled();
      // at() answers from what is on disk without waiting: a connection only when the opening's copy is whole.
      expect((await store.localCopy.at(versions[2]!)) !== null).toBe(fill);
      expect(bucket.state.requests > 0).toBe(fill);
    }
  });

  test("opening an index with a lost data file starts no copy of that version: no read would use it", async () => {
    const { folder } = await bucketWithVersions();
    const lost = readdirSync(join(folder, "chunks.lance", "data"))[0]!;
    rmSync(join(folder, "chunks.lance", "data", lost));
    const bucket = folderBucket(folder);
    const store = new ChunkStore(folder);
    store.localCopy = new ObjectMirror(bucket, tempDir("minirag-copy-"), "chunks", () => {}, true, fakeClock());
    await store.hasTable();
    expect((await store.damage())?.fragments).toHaveLength(1);
    await Bun.sleep(0);
    await store.localCopy.settled();
    expect(bucket.state.requests).toBe(0);
  });

  test("a new reader's first question waits for the copy of its own version when the writer committed after the opening's copy began", async () => {
    const { folder } = await bucketWithVersions();
    const store = new ChunkStore(folder);
    store.localCopy = new ObjectMirror(folderBucket(folder), tempDir("minirag-copy-"), "chunks", () => {}, true, fakeClock());
    await store.hasTable();
    const writer = await (await connect(folder)).openTable("chunks");
    await writer.add([{ id: "d", text: "fourth row" }]);
    const view = await store.snapshot();
    expect(view.pinnedAt).toBe(await writer.version());
    // The view reads the copy: with the bucket's data files gone it still reads every row.
    rmSync(join(folder, "chunks.lance", "data"), { recursive: true });
    const rows = await (await view.open())!.query().select(["id"]).toArray();
    expect(rows.map((r) => r.id).sort()).toEqual(["a", "b", "c", "d"]);
  });

  test("a first copy that would take longer than FIRST_COPY_WAIT_MS at its pace is not waited for: the query reads the store", async () => {
    const { folder, versions } = await bucketWithVersions();
    const bucket = folderBucket(folder);
    // Downloads that hang until released: no byte arrives, so the copy's pace says it would never end.
    const release = holdUntilReleased(bucket, "download");
    const first = await firstQueryWaiting(bucket, versions[1]!);
    first.clock.advance(750);
    expect(await first.stillWaiting()).toBe(true);
    // Its pace is judged once it has run a second, well before the cap.
    expect(FIRST_COPY_WAIT_MS).toBeGreaterThan(1_000);
    first.clock.advance(250);
    expect(await first.answer).toBeNull();
    release();
    await first.copy.settled();
    expect(await first.copy.atFirst(versions[1]!)).not.toBeNull();
  });

  test("while the store is still being listed the copy's pace is not judged: the first query waits up to FIRST_COPY_WAIT_MS, then reads the store", async () => {
    const { folder, versions } = await bucketWithVersions();
    const bucket = folderBucket(folder);
    const release = holdUntilReleased(bucket, "list");
    const first = await firstQueryWaiting(bucket, versions[1]!);
    first.clock.advance(FIRST_COPY_WAIT_MS - 250);
    expect(await first.stillWaiting()).toBe(true);
    first.clock.advance(250);
    expect(await first.answer).toBeNull();
    release();
    await first.copy.settled();
  });
});
