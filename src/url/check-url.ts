/**
 * The guard every hop of an ingest_url fetch passes: the scheme first (http
 * and https only, whatever ALLOW_PRIVATE_URLS says), then the host. An IP
 * literal is judged as it is; a name is resolved once and refused if any of
 * its addresses is blocked, and the address it returns is the one the socket
 * then opens, so a second resolution can never swap in another (DNS
 * rebinding, an open gap in the reference).
 */
import { isIP } from "node:net";
import { AppError } from "../errors.ts";
import { blockedAddress, describeBlocked } from "./ip-address.ts";
import type { Network } from "./network.ts";

export interface HopContext {
  /** The URL the caller asked for; when the hop differs, refusals say it redirected there. */
  requested: URL;
  allowPrivate: boolean;
  network: Network;
}

/** The host as an address or a name: IPv6 without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

function redirectNote(url: URL, requested: URL): string {
  return url.href === requested.href ? "" : `; ${requested.href} redirected to ${url.href}`;
}

/** Parses the URL a caller gave; malformed URLs, missing hosts and malformed IPv6 are argument errors. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError("INVALID_ARGUMENT", `Not a valid URL: ${JSON.stringify(raw)}`, "Pass an absolute http or https URL with a host, e.g. https://example.com/page.");
  }
  assertScheme(url, url);
  if (!url.hostname) throw new AppError("INVALID_ARGUMENT", `The URL ${JSON.stringify(raw)} has no host`, "Pass an absolute http or https URL with a host, e.g. https://example.com/page.");
  return url;
}

/** http and https only, even with ALLOW_PRIVATE_URLS: a file: or data: URL would read past the document roots. */
export function assertScheme(url: URL, requested: URL): void {
  if (url.protocol === "http:" || url.protocol === "https:") return;
  throw new AppError(
    "URL_REFUSED",
    `Refusing to fetch ${url.href.slice(0, 200)}: only http and https URLs are fetched, not ${url.protocol}${redirectNote(url, requested)}`,
    "Other schemes (file:, data:, ftp: ...) are refused even with ALLOW_PRIVATE_URLS. For a local file, put it under a document root and use ingest_file.",
  );
}

function refuse(url: URL, ctx: HopContext, why: string): AppError {
  return new AppError(
    "URL_REFUSED",
    `Refusing to fetch from host ${hostOf(url)}: ${why}${redirectNote(url, ctx.requested)}. Private and local hosts are refused while ALLOW_PRIVATE_URLS is off.`,
    "If the host is one you mean to reach (an internal wiki, a service on this machine), set ALLOW_PRIVATE_URLS=1 (a running MCP server needs a restart to see it). If not, treat the URL as untrusted: " +
      "it may come from an indexed document, and a host you never typed means the page you asked for redirected there.",
  );
}

/** Names that are loopback by definition (RFC 6761), whatever a resolver says. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Checks one hop and returns the address its socket must open, or undefined
 * when ALLOW_PRIVATE_URLS is on and the host is a name (no check, no lookup:
 * the connection resolves it). Throws URL_REFUSED, or FETCH_FAILED when the
 * name does not resolve.
 */
export async function checkHop(url: URL, ctx: HopContext): Promise<string | undefined> {
  assertScheme(url, ctx.requested);
  const host = hostOf(url);
  if (isIP(host)) {
    const blocked = ctx.allowPrivate ? undefined : blockedAddress(host);
    if (blocked) throw refuse(url, ctx, `it is ${describeBlocked(blocked)}`);
    return host;
  }
  if (ctx.allowPrivate) return undefined;
  if (isLocalhostName(host)) throw refuse(url, ctx, "localhost names are loopback addresses");
  const addresses = await resolveHost(url, ctx.network);
  for (const address of addresses) {
    const blocked = blockedAddress(address);
    if (blocked) throw refuse(url, ctx, `it resolves to ${address}, ${describeBlocked(blocked)}`);
  }
  return addresses[0]!;
}

/** Every address of the URL's host; a failed or empty answer is a fetch error, not a refusal. */
export async function resolveHost(url: URL, network: Network): Promise<string[]> {
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = (await network.resolve(host)).filter((a) => isIP(a));
  } catch (error) {
    throw unresolved(url, host, error instanceof Error ? error.message : String(error));
  }
  if (!addresses.length) throw unresolved(url, host, "no addresses");
  return addresses;
}

function unresolved(url: URL, host: string, reason: string): AppError {
  return new AppError("FETCH_FAILED", `Could not fetch ${url.href}: host ${host} did not resolve (${reason})`, "Check the host's spelling and this machine's network connection, then retry.");
}
