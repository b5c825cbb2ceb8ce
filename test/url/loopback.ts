/**
 * Real HTTP servers on loopback and a fake network for ingest_url tests. The
 * fake resolver answers for made-up names; `route` sends a socket for a
 * public-looking address to the loopback server standing in for it, passes
 * loopback addresses through, and throws for anything else, so no test can
 * open a socket off this machine whatever the code under test does.
 */
import { readFileSync } from "node:fs";
import http, { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import https from "node:https";
import { join } from "node:path";
import type { Network } from "../../src/url/network.ts";
import { FIXTURES } from "../helpers.ts";

export interface Loopback {
  server: Server;
  port: number;
  /** Every request path it received, in order. */
  hits: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const CERT_DIR = join(FIXTURES, "url");
/** The self-signed certificate for public.example (test/fixtures/url, made by us). */
export const PUBLIC_EXAMPLE_CA = readFileSync(join(CERT_DIR, "public-example.crt"), "utf8");

/** Starts a server on host (127.0.0.1 unless given) that records each request and answers with `handler`. */
export async function startServer(handler: Handler, options: { host?: string; tls?: boolean } = {}): Promise<Loopback> {
  const hits: string[] = [];
  const record: Handler = (req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  };
  const server = options.tls
    ? https.createServer({ key: readFileSync(join(CERT_DIR, "public-example.key")), cert: PUBLIC_EXAMPLE_CA }, record)
    : http.createServer(record);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, options.host ?? "127.0.0.1", resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    server,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether this machine has an IPv6 loopback to listen on. */
export async function ipv6Loopback(): Promise<boolean> {
  try {
    await (await startServer((_, res) => res.end(), { host: "::1" })).close();
    return true;
  } catch {
    return false;
  }
}

export interface FakeNetwork extends Network {
  /** Every name the resolver was asked for, in order. */
  lookups: string[];
}

export interface FakeNetworkOptions {
  /** name -> addresses, or a function giving each lookup its own answer (a rebinding name). */
  names?: Record<string, string[] | ((attempt: number) => string[])>;
  /** Public-looking address -> the loopback port that stands in for it. */
  routes?: Record<string, number>;
  ca?: string;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export function fakeNetwork(options: FakeNetworkOptions = {}): FakeNetwork {
  const lookups: string[] = [];
  const attempts = new Map<string, number>();
  return {
    lookups,
    ca: options.ca,
    connectTimeoutMs: options.connectTimeoutMs ?? 2_000,
    totalTimeoutMs: options.totalTimeoutMs ?? 10_000,
    async resolve(host) {
      lookups.push(host);
      const answer = options.names?.[host];
      if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      const attempt = (attempts.get(host) ?? 0) + 1;
      attempts.set(host, attempt);
      return typeof answer === "function" ? answer(attempt) : answer;
    },
    route(address, port) {
      const routed = options.routes?.[address];
      if (routed !== undefined) return { address: "127.0.0.1", port: routed };
      if (LOOPBACK.test(address)) return { address, port };
      throw new Error(`test network: a socket to ${address}:${port} would leave this machine`);
    },
  };
}

/** A handler answering 200 with a body and content type. */
export function respond(body: string | Uint8Array, type = "text/html; charset=utf-8", status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": type });
    res.end(body);
  };
}
