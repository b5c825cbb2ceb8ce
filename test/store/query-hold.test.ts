import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ingestFiles } from "../../src/ingest/ingest-files.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { HOLDABLE_AGE_MS, QUERY_HOLD_MS, QueryHold } from "../../src/store/query-hold.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { dataFileOf, loseFile } from "./damage-helpers.ts";
import { fakeClock } from "../fake-clock.ts";
import { testApp, writeTree } from "../helpers.ts";

describe("the version questions are kept on", () => {
  test("the held version while the hold lasts, never one newer than the latest, and the latest once released", () => {
    const hold = new QueryHold(fakeClock());
    expect(hold.versionFor(7)).toBe(7);
    hold.hold(7);
    expect(hold.versionFor(9)).toBe(7);
    // A version older than the held one (an index restored, a staged write's pin) is not moved forward.
    expect(hold.versionFor(5)).toBe(5);
    hold.release();
    expect(hold.versionFor(9)).toBe(9);
  });

  test("a release between taking the mark and holding cancels the hold: the write it stands for is read back", () => {
    const hold = new QueryHold(fakeClock());
    const mark = hold.mark();
    hold.release();
    hold.hold(3, mark);
    expect(hold.versionFor(5)).toBe(5);
  });

  test("a second hold while one is in force keeps the first's version and its end", () => {
    const clock = fakeClock();
    const hold = new QueryHold(clock);
    hold.hold(7);
    clock.advance(QUERY_HOLD_MS - 10);
    hold.hold(9);
    expect(hold.versionFor(12)).toBe(7);
    clock.advance(10);
    expect(hold.versionFor(12)).toBe(12);
    // Once over, a new hold starts afresh.
    hold.hold(12);
    expect(hold.versionFor(14)).toBe(12);
  });

  test("a load ends the holds begun before it started, not one a sync began during it; and cancels no sync's pending hold", () => {
    const hold = new QueryHold(fakeClock());
    hold.hold(7);
    const started = hold.loadStarted();
    hold.hold(9);
    hold.releaseLoaded(started);
    expect(hold.versionFor(12)).toBe(7);
    hold.releaseLoaded(hold.loadStarted());
    expect(hold.versionFor(12)).toBe(12);
    const mark = hold.mark();
    hold.releaseLoaded(hold.loadStarted());
    hold.hold(12, mark);
    expect(hold.versionFor(14)).toBe(12);
    // A sync that changed nothing takes its hold back after the load ended: nothing is left to wait for.
    hold.release();
    expect(hold.hold(14)).toBe("new");
    const loading = hold.loadStarted();
    const joined = hold.hold(16);
    expect(joined).toBe("joined");
    hold.releaseLoaded(loading);
    expect(hold.versionFor(16)).toBe(14);
    hold.takeBack(null);
    expect(hold.versionFor(16)).toBe(14);
    hold.takeBack(joined);
    expect(hold.versionFor(16)).toBe(16);
    // A hold the sync began itself is released when taken back.
    expect(hold.hold(16)).toBe("new");
    hold.takeBack("new");
    expect(hold.versionFor(18)).toBe(18);
    // A sync that joined a hold and changed nothing takes it back: the load under way still ends the hold.
    hold.hold(18);
    const during = hold.loadStarted();
    expect(hold.hold(20)).toBe("joined");
    hold.takeBack("joined");
    hold.releaseLoaded(during);
    expect(hold.versionFor(20)).toBe(20);
  });

  test(`a hold nobody releases runs out after QUERY_HOLD_MS (${QUERY_HOLD_MS} ms)`, () => {
    const clock = fakeClock();
    const hold = new QueryHold(clock);
    hold.hold(3);
    clock.advance(QUERY_HOLD_MS - 1);
    expect(hold.versionFor(4)).toBe(3);
    clock.advance(1);
    expect(hold.versionFor(4)).toBe(4);
  });
});

describe("a store's questions under a hold (real LanceDB)", () => {
  test("a snapshot reads the held version and misses what was written since; the latest one, or any after release, finds it", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443.", "b.md": "# B\n\nThe quokka relay forwards every parcel." });
    await ingestFiles(app, [join(root, "a.md")]);
    const before = (await app.store.snapshot()).pinnedAt;
    await app.store.holdQueries();
    await ingestFiles(app, [join(root, "b.md")]);
    const sources = async (options?: { latest?: boolean }) => (await (await app.store.snapshot(options)).keywordSearch("quokka", 5)).map((h) => h.source);

    const held = await app.store.snapshot();
    expect(held.pinnedAt).toBe(before);
    expect(await sources()).toEqual([]);
    const latest = await app.store.snapshot({ latest: true });
    expect(latest.pinnedAt).toBeGreaterThan(before!);
    expect(await sources({ latest: true })).toEqual([join(root, "b.md")]);

    app.store.queryHold.release();
    expect((await app.store.snapshot()).pinnedAt).toBe(latest.pinnedAt);
    expect(await sources()).toEqual([join(root, "b.md")]);
  });

  test("a version made longer ago than HOLDABLE_AGE_MS is not held: the sync's compaction may prune it", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443." });
    await ingestFiles(app, [join(root, "a.md")]);
    const version = (await app.store.snapshot()).pinnedAt!;
    await app.store.holdQueries(Date.now() + HOLDABLE_AGE_MS + 60_000);
    expect(app.store.queryHold.versionFor(version + 3)).toBe(version + 3);
    await app.store.holdQueries();
    expect(app.store.queryHold.versionFor(version + 3)).toBe(version);
  });

  test("a repair that finds nothing keeps a hold, one that mends the index lets go of it, and a damaged index is not held", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nThe agent listens on port 7443.", "b.md": "# B\n\nThe quokka relay forwards every parcel." });
    await ingestFiles(app, [join(root, "a.md")]);
    await ingestFiles(app, [join(root, "b.md")]);
    const version = (await app.store.snapshot()).pinnedAt!;
    const held = () => app.store.queryHold.versionFor(version + 10) !== version + 10;
    await app.store.holdQueries();
    await app.store.repair();
    expect(held()).toBe(true);
    loseFile(await dataFileOf(app.config.dbPath, join(root, "b.md")));
    await app.store.repair();
    expect(held()).toBe(false);

    loseFile(await dataFileOf(app.config.dbPath, join(root, "a.md")));
    await app.store.holdQueries();
    expect(held()).toBe(false);
  });

  test("a held question's date filter reads the held version's dates, as its search does", async () => {
    const { app, root } = await testApp();
    writeTree(root, { ".minirag/classify.toml": '[facets.kind]\ndefault = "note"\nvalues.note = { description = "A note." }\n', "spec.md": "Date: 12.08.2026\n\n# Pump spec\n\nThe coolant pump moves 40 litres a minute." });
    await runSync(app);
    await app.store.holdQueries();
    writeTree(root, { "spec.md": "Date: 12.08.2030\n\n# Pump spec\n\nThe coolant pump moves 40 litres a minute." });
    await runSync(app);
    const august = { query: "coolant pump", dateFrom: "2026-08-01", dateTo: "2026-08-31" };
    expect((await queryDocuments(app, august)).sources.map((s) => s.date)).toEqual(["2026-08-12"]);
    app.store.queryHold.release();
    expect((await queryDocuments(app, august)).results).toEqual([]);
  });

  test("without a table there is nothing to hold", async () => {
    const { app } = await testApp();
    await app.store.holdQueries();
    expect(app.store.queryHold.versionFor(12)).toBe(12);
  });
});
