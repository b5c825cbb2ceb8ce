import { describe, expect, test } from "bun:test";
import { describeHolder, isAbandoned, isExpired, LEASE_MS, leaseRecord, parseLease, sinceRenewal } from "../../src/sync/lease-record.ts";

const NOW = Date.parse("2026-12-02T12:00:00Z");

describe("the sync lease record", () => {
  test("a record round-trips through its JSON; anything else is not a lease", () => {
    const record = leaseRecord("h1", "laptop-a", 42, NOW);
    expect(parseLease(JSON.stringify(record))).toEqual(record);
    expect(record.started).toBe(record.renewed);
    for (const text of ["", "{", "null", JSON.stringify({ ...record, pid: "42" }), JSON.stringify({ host: "x" })]) expect(parseLease(text)).toBeNull();
  });

  test("a renewal keeps when the holder started", () => {
    const renewed = leaseRecord("h1", "laptop-a", 42, NOW + 30_000, "2026-12-02T12:00:00.000Z");
    expect(renewed.started).toBe("2026-12-02T12:00:00.000Z");
    expect(renewed.renewed).toBe("2026-12-02T12:00:30.000Z");
  });

  test.each([
    ["renewed just now", 0, undefined, false],
    ["renewed exactly LEASE_MS ago", LEASE_MS, undefined, false],
    ["not renewed for longer", LEASE_MS + 1, undefined, true],
    ["old by the record but fresh by the store's clock (a skewed writer)", LEASE_MS * 10, 5_000, false],
    ["fresh by the record but old by the store's clock", 0, LEASE_MS + 1_000, true],
  ])("%s: expired is %p", (_, recordAge, storedAge, expired) => {
    const record = leaseRecord("h", "host", 1, NOW - (recordAge as number));
    expect(isExpired(record, NOW, storedAge as number | undefined)).toBe(expired as boolean);
  });

  test("an unreadable lease expires with the store's age, and counts as expired when no age is known", () => {
    expect(isExpired(null, NOW, 1_000)).toBe(false);
    expect(isExpired(null, NOW)).toBe(true);
    expect(sinceRenewal(null, NOW)).toBe(Number.POSITIVE_INFINITY);
  });

  test("the holder is named by host, process and how long it has held the lease", () => {
    const record = leaseRecord("h", "build-7", 4121, NOW - 182_000);
    expect(describeHolder(record, NOW)).toBe("host build-7 (process 4121) has held it for 3m 2s");
    expect(describeHolder(null, NOW)).toBe("another machine holds it");
  });

  test.each([
    ["this machine, same boot, process gone", { host: "a", boot: "b1" }, false, true],
    ["this machine, same boot, process running", { host: "a", boot: "b1" }, true, false],
    ["another host with the same boot id", { host: "other", boot: "b1" }, false, false],
    ["this host after a reboot (another boot id): judged by expiry", { host: "a", boot: "b0" }, false, false],
    ["a holder that recorded no boot id", { host: "a", boot: null }, false, false],
  ])("abandoned by a holder on %s: %p", (_, holder, running, abandoned) => {
    const record = leaseRecord("h", holder.host, 77, NOW, undefined, { boot: holder.boot, pidStart: "123" });
    const asked: [number, string | null | undefined][] = [];
    const here = { host: "a", boot: "b1", alive: (pid: number, start: string | null | undefined) => (asked.push([pid, start]), running as boolean) };
    expect(isAbandoned(record, here)).toBe(abandoned as boolean);
    if (asked.length) expect(asked).toEqual([[77, "123"]]);
    expect(isAbandoned(null, here)).toBe(false);
  });
});
