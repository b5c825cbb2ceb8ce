/**
 * Fetches an http(s) URL for ingest_url: every hop is checked (checkHop) and
 * then opened at the address the check returned, at most 5 redirects are
 * followed, the whole fetch runs under one deadline and the body under
 * MAX_FILE_SIZE. Redirects are followed here, never by an HTTP library,
 * because the check has to see each hop.
 */
import type { ClientRequest } from "node:http";
import { AppError } from "../errors.ts";
import { checkHop, hostOf, parseFetchUrl, resolveHost, type HopContext } from "./check-url.ts";
import { fetchFailed, requestHop } from "./http-hop.ts";
import type { Network } from "./network.ts";
import { readBody } from "./read-body.ts";

/** The reference's cap (requests would follow 30). */
export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface FetchOptions {
  allowPrivate: boolean;
  /** MAX_FILE_SIZE */
  maxBytes: number;
  network: Network;
}

export interface Fetched {
  /** The URL asked for, as parsed. */
  url: URL;
  /** Where the body came from, after redirects. */
  finalUrl: URL;
  /** The media type, lower case, without parameters ("" when the server sent none). */
  mediaType: string;
  /** The charset parameter of Content-Type, if any. */
  charset?: string;
  bytes: Uint8Array;
}

function parseContentType(header: string | undefined): { mediaType: string; charset?: string } {
  const [type = "", ...params] = (header ?? "").split(";");
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean);
  return { mediaType: type.trim().toLowerCase(), charset };
}

/** Fetches `raw`, or throws INVALID_ARGUMENT, URL_REFUSED, FETCH_FAILED or FILE_TOO_LARGE naming the URL. */
export async function fetchUrl(raw: string, options: FetchOptions): Promise<Fetched> {
  const requested = parseFetchUrl(raw);
  const ctx: HopContext = { requested, allowPrivate: options.allowPrivate, network: options.network };
  const limitMs = options.network.totalTimeoutMs;
  let current: ClientRequest | undefined;
  let expired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = true;
      const error = fetchFailed(requested, `it took longer than ${limitMs / 1000} s and was stopped`);
      current?.destroy(error);
      reject(error);
    }, limitMs);
  });
  const run = async (): Promise<Fetched> => {
    let url = requested;
    for (let redirects = 0; ; redirects++) {
      const checked = await checkHop(url, ctx);
      if (expired) throw fetchFailed(requested, "the time limit passed");
      // With ALLOW_PRIVATE_URLS a name goes unchecked; the socket still opens the one address resolved here.
      const address = checked ?? (await resolveHost(url, ctx.network))[0]!;
      const response = await requestHop({ url, address, network: ctx.network, started: (r) => (current = r) });
      if (REDIRECTS.has(response.statusCode ?? 0)) {
        response.destroy();
        const location = response.headers.location;
        if (!location) throw fetchFailed(url, `it answered ${response.statusCode} without a Location`);
        if (redirects === MAX_REDIRECTS) {
          throw new AppError(
            "FETCH_FAILED",
            `Could not fetch ${requested.href}: it redirected more than ${MAX_REDIRECTS} times (last to ${location.slice(0, 200)})`,
            "Open the URL in a browser to see where it ends up, and pass that address instead.",
          );
        }
        try {
          url = new URL(location, url);
        } catch {
          throw fetchFailed(url, `it redirected to an invalid location (${location.slice(0, 200)})`);
        }
        continue;
      }
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.destroy();
        throw fetchFailed(url, `${hostOf(url)} answered ${status} ${response.statusMessage ?? ""}`.trim());
      }
      const bytes = await readBody(response, url, options.maxBytes);
      return { url: requested, finalUrl: url, ...parseContentType(response.headers["content-type"]), bytes };
    }
  };
  const running = run();
  running.catch(() => {}); // when the deadline wins, the hop still fails later; nobody waits for it then
  try {
    return await Promise.race([running, deadline]);
  } catch (error) {
    // Destroying the request for the deadline surfaces as the stream's own error; say what happened.
    if (expired) throw fetchFailed(requested, `it took longer than ${limitMs / 1000} s and was stopped`);
    throw error;
  } finally {
    clearTimeout(timer);
    current?.destroy();
  }
}
