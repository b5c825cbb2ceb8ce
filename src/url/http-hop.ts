/**
 * One HTTP request of a fetch, to an address already checked. The socket
 * opens that address itself (the request's host is the IP, the URL's host
 * goes in the Host header and, for https, the TLS server name), so nothing
 * resolves the name a second time. No agent: a pooled socket from another
 * hop must not carry this one.
 */
import http, { type ClientRequest, type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { AppError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { hostOf } from "./check-url.ts";
import type { Network } from "./network.ts";

export interface HopRequest {
  url: URL;
  /** The checked address the socket opens. */
  address: string;
  network: Network;
  /** Called with the request as soon as it exists, so the fetch's deadline can destroy it. */
  started(request: ClientRequest): void;
}

export function fetchFailed(url: URL, reason: string): AppError {
  return new AppError("FETCH_FAILED", `Could not fetch ${url.href}: ${reason}`, "Check the URL and this machine's network connection, then retry; a server that is down or slow fails the same way.");
}

/** Sends a GET and resolves with the response once its headers arrive. */
export function requestHop({ url, address, network, started }: HopRequest): Promise<IncomingMessage> {
  const secure = url.protocol === "https:";
  const host = hostOf(url);
  const port = Number(url.port) || (secure ? 443 : 80);
  const target = network.route?.(address, port) ?? { address, port };
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request({
      host: target.address,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      agent: false,
      ...(secure ? { servername: isIP(host) ? undefined : host, ...(network.ca ? { ca: network.ca } : {}) } : {}),
      auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
      headers: {
        host: url.host,
        "user-agent": `minirag-mcp/${VERSION}`,
        accept: "text/html,application/xhtml+xml,application/pdf,text/*;q=0.9,*/*;q=0.8",
        "accept-encoding": "gzip, deflate, br",
      },
    });
    started(request);
    request.on("socket", (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(
        () => request.destroy(fetchFailed(url, `no connection to ${host} within ${network.connectTimeoutMs / 1000} s`)),
        network.connectTimeoutMs,
      );
      socket.once("connect", () => clearTimeout(timer));
      socket.once("close", () => clearTimeout(timer));
    });
    request.on("response", resolve);
    request.on("error", (error) => reject(error instanceof AppError ? error : fetchFailed(url, error.message)));
    request.end();
  });
}
