import { describe, expect, test } from "bun:test";
import { blockedAddress, v6Bytes } from "../../src/url/ip-address.ts";

describe("blocked addresses", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["192.0.2.10", "private"],
    ["fd00::1", "private"],
    ["fc00::1", "private"],
    ["fec0::1", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["2001:db8::1", "reserved"],
    ["2002:7f00:1::1", "reserved"],
    ["100::1", "reserved"],
    ["::7f00:1", "reserved"],
  ])("%s is refused as %s", (address, kind) => {
    expect(blockedAddress(address)?.kind).toBe(kind);
  });

  test.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:100.64.0.1", "carrier-grade NAT"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a00:1", "private"],
  ])("IPv4 inside IPv6 (%s) is judged by the IPv4 address: %s", (address, kind) => {
    expect(blockedAddress(address)?.kind).toBe(kind);
  });

  test.each([["93.184.216.34"], ["8.8.8.8"], ["100.63.255.255"], ["100.128.0.1"], ["172.32.0.1"], ["11.0.0.1"], ["2606:4700:4700::1111"], ["2a00:1450:4001:80b::200e"], ["::ffff:8.8.8.8"], ["64:ff9b::808:808"]])(
    "the public address %s is allowed",
    (address) => {
      expect(blockedAddress(address)).toBeUndefined();
    },
  );

  test("the refusal names the range", () => {
    expect(blockedAddress("100.100.100.200")).toEqual({ kind: "carrier-grade NAT", range: "100.64.0.0/10" });
    expect(blockedAddress("169.254.169.254")).toEqual({ kind: "link-local", range: "169.254.0.0/16" });
  });

  test("IPv6 text in every spelling becomes the same 16 bytes", () => {
    const loopback = [...Array(15).fill(0), 1];
    expect(v6Bytes("::1")).toEqual(loopback);
    expect(v6Bytes("0:0:0:0:0:0:0:1")).toEqual(loopback);
    expect(v6Bytes("::ffff:127.0.0.1")).toEqual(v6Bytes("::ffff:7f00:1"));
    expect(v6Bytes("1:2:3:4:5:6:7:8")).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(v6Bytes("1::8")).toEqual([0, 1, ...Array(12).fill(0), 0, 8]);
  });

  test("something that is not an address is a programming error, not a pass", () => {
    expect(() => blockedAddress("localhost")).toThrow("not an IP address");
  });
});
