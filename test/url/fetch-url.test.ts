/**
 * The fetch against real servers on loopback. Public-looking names resolve
 * through a fake resolver, and their sockets are routed to loopback servers
 * standing in for them; nothing leaves this machine (test/url/loopback.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { fetchUrl, MAX_REDIRECTS } from "../../src/url/fetch-url.ts";
import { unacceptedPort } from "./unaccepted-port.ts";
import { failure, waitFor } from "../helpers.ts";
import { fakeNetwork, ipv6Loopback, respond, startServer, type FakeNetworkOptions, type Loopback } from "./loopback.ts";

const HAS_IPV6_LOOPBACK = await ipv6Loopback();

const PUBLIC = "93.184.216.34";
const MB = 1024 * 1024;

let publicSite: Loopback;
let privateSite: Loopback;

beforeAll(async () => {
  // Stands in for a public web server: redirect chains, a redirect to the metadata address, plain pages.
  publicSite = await startServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
    if (hop) {
      const left = Number(hop[1]);
      res.writeHead(left ? 302 : 200, left ? { location: `/hop/${left - 1}` } : { "content-type": "text/plain" });
      return void res.end(left ? "" : "arrived");
    }
    if (url.pathname === "/to-metadata") {
      res.writeHead(302, { location: `http://169.254.169.254:${privateSite.port}/latest/meta-data/` });
      return void res.end();
    }
    if (url.pathname === "/to-file") {
      res.writeHead(301, { location: "file:///etc/passwd" });
      return void res.end();
    }
    if (url.pathname === "/missing") return respond("gone", "text/plain", 404)(req, res);
    respond(`public page at ${url.pathname}`, "text/plain; charset=utf-8")(req, res);
  });
  // Stands in for what must stay unreachable: cloud metadata, a service on localhost.
  privateSite = await startServer(respond("SECRET credentials", "text/plain"));
});

afterAll(async () => {
  await publicSite.close();
  await privateSite.close();
});

function network(options: FakeNetworkOptions = {}) {
  return fakeNetwork({ names: { "public.example": [PUBLIC] }, routes: { [PUBLIC]: publicSite.port, "169.254.169.254": privateSite.port }, ...options });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("redirects", () => {
  test("a public-looking host that 302s to 169.254.169.254 is refused, and the private server sees no request", async () => {
    const before = privateSite.hits.length;
    const error = await failure(fetchUrl(`http://public.example:${publicSite.port}/to-metadata`, { allowPrivate: false, maxBytes: MB, network: network() }));
    expect(error.code).toBe("URL_REFUSED");
    expect(error.message).toContain("Refusing to fetch from host 169.254.169.254: it is a link-local address");
    expect(error.message).toContain(`http://public.example:${publicSite.port}/to-metadata redirected to http://169.254.169.254:${privateSite.port}/latest/meta-data/`);
    expect(error.message).toContain("ALLOW_PRIVATE_URLS");
    expect(privateSite.hits.length).toBe(before);
  });

  test("the same redirect with ALLOW_PRIVATE_URLS reaches the private server, so the refusal above is the guard's doing", async () => {
    const fetched = await fetchUrl(`http://public.example:${publicSite.port}/to-metadata`, { allowPrivate: true, maxBytes: MB, network: network() });
    expect(text(fetched.bytes)).toBe("SECRET credentials");
    expect(privateSite.hits.at(-1)).toBe("/latest/meta-data/");
  });

  test("a redirect to file: is refused even with ALLOW_PRIVATE_URLS, and says it was redirected", async () => {
    for (const allowPrivate of [false, true]) {
      const error = await failure(fetchUrl(`http://public.example:${publicSite.port}/to-file`, { allowPrivate, maxBytes: MB, network: network() }));
      expect(error.code).toBe("URL_REFUSED");
      expect(error.message).toContain("redirected to file:///etc/passwd");
    }
  });

  test("a 3-hop chain is followed, each hop checked", async () => {
    const net = network();
    const fetched = await fetchUrl(`http://public.example:${publicSite.port}/hop/3`, { allowPrivate: false, maxBytes: MB, network: net });
    expect(text(fetched.bytes)).toBe("arrived");
    expect(fetched.finalUrl.pathname).toBe("/hop/0");
    expect(fetched.url.pathname).toBe("/hop/3");
    expect(net.lookups).toEqual(Array(4).fill("public.example"));
  });

  test(`a 9-hop chain fails with the redirect-limit error after ${MAX_REDIRECTS} redirects`, async () => {
    const before = publicSite.hits.length;
    const error = await failure(fetchUrl(`http://public.example:${publicSite.port}/hop/9`, { allowPrivate: false, maxBytes: MB, network: network() }));
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toContain("redirected more than 5 times");
    expect(publicSite.hits.slice(before)).toEqual(["/hop/9", "/hop/8", "/hop/7", "/hop/6", "/hop/5", "/hop/4"]);
  });

  test("a chain of exactly 5 redirects is still followed", async () => {
    const fetched = await fetchUrl(`http://public.example:${publicSite.port}/hop/5`, { allowPrivate: false, maxBytes: MB, network: network() });
    expect(text(fetched.bytes)).toBe("arrived");
  });
});

describe("DNS rebinding", () => {
  test("a name that answers public first and 127.0.0.1 next cannot reach the loopback server: the socket opens the address that was checked", async () => {
    const before = privateSite.hits.length;
    const net = network({ names: { "rebind.example": (attempt) => (attempt === 1 ? [PUBLIC] : ["127.0.0.1"]) } });
    // The URL's port is the loopback server's: a connection that resolved the name again would land there.
    const fetched = await fetchUrl(`http://rebind.example:${privateSite.port}/latest`, { allowPrivate: false, maxBytes: MB, network: net });
    expect(text(fetched.bytes)).toBe("public page at /latest");
    expect(privateSite.hits.length).toBe(before);
    expect(net.lookups).toEqual(["rebind.example"]);
  });
});

describe("limits", () => {
  test("an endless body is cut at MAX_FILE_SIZE while it streams", async () => {
    let closed = false;
    const endless = await startServer((req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      const timer = setInterval(() => res.write(chunk), 1);
      req.socket.on("close", () => {
        clearInterval(timer);
        closed = true;
      });
    });
    try {
      const started = Date.now();
      const error = await failure(fetchUrl(`http://127.0.0.1:${endless.port}/`, { allowPrivate: true, maxBytes: MB, network: network() }));
      expect(error.code).toBe("FILE_TOO_LARGE");
      expect(error.message).toContain(`exceeds MAX_FILE_SIZE (${MB})`);
      expect(Date.now() - started).toBeLessThan(5_000);
      // The connection is let go once the cap is hit, not when the server stops sending.
      expect(await waitFor(() => closed, 5_000, "the capped connection to close")).toBe(true);
    } finally {
      await endless.close();
    }
  });

  test("a declared length over MAX_FILE_SIZE is refused before the body is read", async () => {
    const big = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": String(50 * MB) });
      res.write("%PDF-");
    });
    try {
      const error = await failure(fetchUrl(`http://127.0.0.1:${big.port}/big.pdf`, { allowPrivate: true, maxBytes: MB, network: network() }));
      expect(error.code).toBe("FILE_TOO_LARGE");
      expect(error.message).toContain(`declares ${50 * MB} bytes`);
    } finally {
      await big.close();
    }
  });

  test("a gzip body is decoded, and a compression bomb is cut at MAX_FILE_SIZE of decoded bytes", async () => {
    const bomb = gzipSync(Buffer.alloc(20 * MB));
    const small = gzipSync("hello, compressed");
    const zipped = await startServer((req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      res.end(req.url === "/bomb" ? bomb : small);
    });
    try {
      expect(bomb.length).toBeLessThan(MB);
      const ok = await fetchUrl(`http://127.0.0.1:${zipped.port}/small`, { allowPrivate: true, maxBytes: MB, network: network() });
      expect(text(ok.bytes)).toBe("hello, compressed");
      const error = await failure(fetchUrl(`http://127.0.0.1:${zipped.port}/bomb`, { allowPrivate: true, maxBytes: MB, network: network() }));
      expect(error.code).toBe("FILE_TOO_LARGE");
    } finally {
      await zipped.close();
    }
  });

  test("a slow-loris server is cut by the time limit", async () => {
    const loris = await startServer((req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 100);
      req.socket.on("close", () => clearInterval(timer));
    });
    try {
      const started = Date.now();
      const error = await failure(fetchUrl(`http://127.0.0.1:${loris.port}/`, { allowPrivate: true, maxBytes: MB, network: network({ totalTimeoutMs: 1_000 }) }));
      expect(error.code).toBe("FETCH_FAILED");
      expect(error.message).toContain("took longer than 1 s and was stopped");
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await loris.close();
    }
  });

  test("a server that accepts and never answers is cut by the time limit", async () => {
    const silent = await startServer(() => {});
    try {
      const error = await failure(fetchUrl(`http://127.0.0.1:${silent.port}/`, { allowPrivate: true, maxBytes: MB, network: network({ totalTimeoutMs: 500 }) }));
      expect(error.message).toContain("took longer than 0.5 s");
    } finally {
      await silent.close();
    }
  });
});

describe("the connect time limit", () => {
  test.if(process.platform === "linux")("a host that never completes the connection is cut by the connect limit, long before the total one", async () => {
    const port = await unacceptedPort();
    try {
      const started = performance.now();
      const error = await failure(fetchUrl(`http://127.0.0.1:${port.port}/`, { allowPrivate: true, maxBytes: MB, network: network({ connectTimeoutMs: 300, totalTimeoutMs: 60_000 }) }));
      expect(error.code).toBe("FETCH_FAILED");
      expect(error.message).toContain("no connection to 127.0.0.1 within 0.3 s");
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      port.close();
    }
  });
});

describe("ALLOW_PRIVATE_URLS", () => {
  test("off, the loopback server is refused; on, it is fetched", async () => {
    const url = `http://127.0.0.1:${privateSite.port}/admin`;
    expect((await failure(fetchUrl(url, { allowPrivate: false, maxBytes: MB, network: network() }))).code).toBe("URL_REFUSED");
    expect(text((await fetchUrl(url, { allowPrivate: true, maxBytes: MB, network: network() })).bytes)).toBe("SECRET credentials");
  });

  test("on, a name is resolved only to connect, and the loopback server answers", async () => {
    const net = network({ names: { "wiki.internal": ["127.0.0.1"] } });
    const fetched = await fetchUrl(`http://wiki.internal:${privateSite.port}/`, { allowPrivate: true, maxBytes: MB, network: net });
    expect(text(fetched.bytes)).toBe("SECRET credentials");
    expect(net.lookups).toEqual(["wiki.internal"]);
  });

  // A machine without ::1 (some containers) skips this visibly, counted as skipped.
  test.skipIf(!HAS_IPV6_LOOPBACK)("on, the IPv6 loopback server [::1] answers [needs an IPv6 loopback]", async () => {
    const v6 = await startServer(respond("over IPv6", "text/plain"), { host: "::1" });
    try {
      const url = `http://[::1]:${v6.port}/`;
      expect((await failure(fetchUrl(url, { allowPrivate: false, maxBytes: MB, network: network() }))).message).toContain("host ::1: it is a loopback address");
      expect(text((await fetchUrl(url, { allowPrivate: true, maxBytes: MB, network: network() })).bytes)).toBe("over IPv6");
      expect(v6.hits).toEqual(["/"]);
    } finally {
      await v6.close();
    }
  });
});

describe("HTTPS to a pinned address", () => {
  test("the TLS server name and Host header are the URL's host while the socket opens the checked address", async () => {
    let seen = "";
    const tls = await startServer(
      (req, res) => {
        seen = `${req.headers.host} ${(req.socket as unknown as { servername?: string }).servername}`;
        respond("secure page", "text/plain")(req, res);
      },
      { tls: true },
    );
    try {
      const { PUBLIC_EXAMPLE_CA } = await import("./loopback.ts");
      const net = network({ ca: PUBLIC_EXAMPLE_CA, routes: { [PUBLIC]: tls.port } });
      const fetched = await fetchUrl(`https://public.example:${tls.port}/`, { allowPrivate: false, maxBytes: MB, network: net });
      expect(text(fetched.bytes)).toBe("secure page");
      expect(seen).toBe(`public.example:${tls.port} public.example`);
      // The certificate is still verified against the name: another name on the same address fails.
      const other = network({ ca: PUBLIC_EXAMPLE_CA, routes: { [PUBLIC]: tls.port }, names: { "other.example": [PUBLIC] } });
      expect((await failure(fetchUrl(`https://other.example:${tls.port}/`, { allowPrivate: false, maxBytes: MB, network: other }))).code).toBe("FETCH_FAILED");
    } finally {
      await tls.close();
    }
  });
});

describe("answers that are not a page", () => {
  test("a 404 is a fetch error naming the status", async () => {
    const error = await failure(fetchUrl(`http://public.example:${publicSite.port}/missing`, { allowPrivate: false, maxBytes: MB, network: network() }));
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toContain("answered 404");
  });

  test("a refused connection is a fetch error", async () => {
    const gone = await startServer(respond("x"));
    const port = gone.port;
    await gone.close();
    const error = await failure(fetchUrl(`http://127.0.0.1:${port}/`, { allowPrivate: true, maxBytes: MB, network: network() }));
    expect(error.code).toBe("FETCH_FAILED");
  });

  test("the content type and charset are read from the header", async () => {
    const fetched = await fetchUrl(`http://public.example:${publicSite.port}/page`, { allowPrivate: false, maxBytes: MB, network: network() });
    expect(fetched.mediaType).toBe("text/plain");
    expect(fetched.charset).toBe("utf-8");
  });
});
