/**
 * Which IP addresses ingest_url may not reach, and why. Pure: an address in,
 * a reason (with the range it falls in) or undefined out. Beyond the
 * reference's loopback, link-local, unspecified, private and reserved, this
 * also refuses carrier-grade NAT (100.64/10) and multicast, which it let
 * through. IPv4-mapped IPv6 and the NAT64 prefix are judged by the IPv4
 * address inside them.
 */
import { isIPv4, isIPv6 } from "node:net";

export interface BlockedAddress {
  /** loopback, link-local, unspecified, private, carrier-grade NAT, multicast or reserved */
  kind: string;
  /** The range, e.g. 169.254.0.0/16. */
  range: string;
}

type Range = [prefix: number[], bits: number, kind: string, label: string];

/** In the reference's order of reasons (loopback, link-local, unspecified, private, reserved), ours after private. */
const V4: Range[] = [
  [[127], 8, "loopback", "127.0.0.0/8"],
  [[169, 254], 16, "link-local", "169.254.0.0/16"],
  [[0], 8, "unspecified", "0.0.0.0/8"],
  [[10], 8, "private", "10.0.0.0/8"],
  [[172, 16], 12, "private", "172.16.0.0/12"],
  [[192, 168], 16, "private", "192.168.0.0/16"],
  // Not globally reachable by IANA's registry, which Python's is_private (the reference's test) follows.
  [[192, 0, 0], 24, "private", "192.0.0.0/24"],
  [[192, 0, 2], 24, "private", "192.0.2.0/24"],
  [[198, 18], 15, "private", "198.18.0.0/15"],
  [[198, 51, 100], 24, "private", "198.51.100.0/24"],
  [[203, 0, 113], 24, "private", "203.0.113.0/24"],
  [[100, 64], 10, "carrier-grade NAT", "100.64.0.0/10"],
  [[224], 4, "multicast", "224.0.0.0/4"],
  [[240], 4, "reserved", "240.0.0.0/4"],
];

/** Hextets as byte prefixes; everything outside 2000::/3 that is not listed here is reserved. */
const V6: Range[] = [
  [[0xfe, 0x80], 10, "link-local", "fe80::/10"],
  [[0xfe, 0xc0], 10, "private", "fec0::/10 (site-local)"],
  [[0xfc], 7, "private", "fc00::/7"],
  [[0xff], 8, "multicast", "ff00::/8"],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, "private", "64:ff9b:1::/48"],
  // Teredo and the other IETF assignments, and 6to4, which wraps an IPv4 address a relay then reaches.
  [[0x20, 0x01, 0x00], 23, "reserved", "2001::/23"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "reserved", "2001:db8::/32 (documentation)"],
  [[0x20, 0x02], 16, "reserved", "2002::/16 (6to4)"],
  [[0x3f, 0xff], 20, "reserved", "3fff::/20 (documentation)"],
];

function inRange(bytes: number[], prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Bytes(text: string): number[] {
  return text.split(".").map(Number);
}

/** The 16 bytes of an IPv6 address (with or without a dotted IPv4 tail); input already checked by isIPv6. */
export function v6Bytes(text: string): number[] {
  let head = text;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail = v4Bytes(dotted[1]!);
    head = text.slice(0, -dotted[1]!.length);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const hextets = (part: string) => (part ? part.split(":").map((h) => parseInt(h, 16)) : []);
  const [left, right] = head.includes("::") ? head.split("::") : [head, undefined];
  const l = hextets(left!);
  const r = right === undefined ? [] : hextets(right);
  const missing = 8 - tail.length / 2 - l.length - r.length;
  const words = [...l, ...Array<number>(right === undefined ? 0 : missing).fill(0), ...r];
  return [...words.flatMap((w) => [w >> 8, w & 0xff]), ...tail];
}

function classifyV4(bytes: number[]): BlockedAddress | undefined {
  if (bytes.every((b) => b === 255)) return { kind: "reserved", range: "255.255.255.255 (broadcast)" };
  const hit = V4.find(([prefix, bits]) => inRange(bytes, prefix, bits));
  return hit ? { kind: hit[2], range: hit[3] } : undefined;
}

function classifyV6(bytes: number[]): BlockedAddress | undefined {
  const zeroUpTo = (n: number) => bytes.slice(0, n).every((b) => b === 0);
  if (zeroUpTo(15) && bytes[15] === 1) return { kind: "loopback", range: "::1" };
  if (zeroUpTo(16)) return { kind: "unspecified", range: "::" };
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address they carry.
  if (zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyV4(bytes.slice(12));
  if (inRange(bytes, [0x00, 0x64, 0xff, 0x9b], 96)) return classifyV4(bytes.slice(12));
  const hit = V6.find(([prefix, bits]) => inRange(bytes, prefix, bits));
  if (hit) return { kind: hit[2], range: hit[3] };
  if (!inRange(bytes, [0x20], 3)) return { kind: "reserved", range: "outside 2000::/3 (global unicast)" };
  return undefined;
}

/** Why an IP address may not be fetched from, or undefined when it is a public address. Not an address: throws. */
export function blockedAddress(address: string): BlockedAddress | undefined {
  if (isIPv4(address)) return classifyV4(v4Bytes(address));
  if (isIPv6(address)) return classifyV6(v6Bytes(address));
  throw new Error(`not an IP address: ${address}`);
}

/** "a loopback address (127.0.0.0/8)" */
export function describeBlocked(blocked: BlockedAddress): string {
  return `${/^[aeiou]/.test(blocked.kind) ? "an" : "a"} ${blocked.kind} address (${blocked.range})`;
}
