/**
 * How ingest_url reaches the network. The system one resolves names with the
 * operating system's resolver; tests hand createApp their own, so a fake
 * resolver can answer for public-looking names and `route` can send the
 * socket to a loopback server standing in for them. Users never set this:
 * there is no environment variable for it.
 */
import { lookup } from "node:dns/promises";

export interface Network {
  /** Every address a host name resolves to, in the resolver's order. */
  resolve(host: string): Promise<string[]>;
  /** Tests only: where a socket for a checked address and port really goes (a loopback server in place of a public host). */
  route?(address: string, port: number): { address: string; port: number };
  /** Tests only: extra trusted CA certificates (PEM), for a loopback HTTPS server. */
  ca?: string;
  /** Milliseconds to open a connection, per hop. */
  connectTimeoutMs: number;
  /** Milliseconds for the whole fetch: every hop, headers and body. */
  totalTimeoutMs: number;
}

/** The reference's limit on a name's resolution. */
export const RESOLVE_TIMEOUT_MS = 5_000;
export const CONNECT_TIMEOUT_MS = 10_000;
/** As long as one file may take to convert (RAG_CONVERT_TIMEOUT's default): a 100 MB page at 1 MB/s fits. */
export const TOTAL_TIMEOUT_MS = 120_000;

async function systemResolve(host: string): Promise<string[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${RESOLVE_TIMEOUT_MS / 1000} s`)), RESOLVE_TIMEOUT_MS);
  });
  try {
    // verbatim: the resolver's own order, IPv6 included, as a connection would see it.
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

export const SYSTEM_NETWORK: Network = {
  resolve: systemResolve,
  connectTimeoutMs: CONNECT_TIMEOUT_MS,
  totalTimeoutMs: TOTAL_TIMEOUT_MS,
};
