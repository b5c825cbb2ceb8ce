/**
 * ingest_url end to end through a real MCP client: a loopback server stands
 * in for public hosts (test/url/loopback.ts), the page goes through the
 * guard, the conversion worker, the tiny ONNX model and LanceDB, and is then
 * found by query_documents.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp, type App } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { FIXTURES, TINY_MODEL, tempDir } from "../helpers.ts";
import { call, connectInMemory, errorText } from "../mcp/mcp-client.ts";
import { fakeNetwork, respond, startServer, type Loopback } from "../url/loopback.ts";

const PUBLIC = "93.184.216.34";
const PAGE = `<!doctype html><html><head><title>Zebra mode release notes</title></head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/careers">Careers at Quokkasoft</a></nav>
<article><h1>Zebra mode arrives in version 7</h1>
<p>Version 7 adds zebra mode, which stripes every table in the report viewer so that long rows stay readable on small screens.</p>
<p>Zebra mode is switched on under Settings, View, Tables; it remembers the choice per workspace and exports the stripes to PDF.</p>
<p>Administrators can enforce zebra mode for everyone in an organisation through the policy file that ships with version 7.</p></article>
<footer><p>Copyright Quokkasoft. Subscribe to our newsletter for offers.</p></footer></body></html>`;

let site: Loopback;
let client: Client;
let root: string;

function urlApp(env: Record<string, string> = {}): { app: App; root: string } {
  const rootDir = tempDir("minirag-root-");
  const config = loadConfig({ env: { MODEL_NAME: TINY_MODEL, BASE_DIRS: JSON.stringify([rootDir]), DB_PATH: join(tempDir("minirag-db-"), "lancedb"), ...env } });
  const network = fakeNetwork({ names: { "news.example": [PUBLIC] }, routes: { [PUBLIC]: site.port } });
  return { app: createApp(config, { log: () => {}, network }), root: rootDir };
}

const on = (path: string) => `http://news.example:${site.port}${path}`;

beforeAll(async () => {
  site = await startServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/notes") return respond(PAGE)(req, res);
    if (path === "/handbook") return respond(readFileSync(join(FIXTURES, "pdf/handbook.pdf")), "application/pdf")(req, res);
    if (path === "/plain") return respond("# Not a heading here\nQuokka counts are plain text.", "text/plain")(req, res);
    if (path === "/raw/guide.md") return respond("# Wombat guide\n\nWombats dig burrows.", "application/octet-stream")(req, res);
    if (path === "/photo") return respond(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "image/png")(req, res);
    if (path === "/latin1") return respond(new Uint8Array(Buffer.from("Caf\xe9 cr\xe8me, the pangolin menu.", "latin1")), "text/plain; charset=iso-8859-1")(req, res);
    respond("not found", "text/plain", 404)(req, res);
  });
  let app: App;
  ({ app, root } = urlApp());
  client = await connectInMemory({ app });
});

afterAll(async () => {
  await site.close();
});

describe("ingest_url", () => {
  test("an ingested page is found by query_documents, titled from <title>, its displayPath the URL without the fragment", async () => {
    const r = await call(client, "ingest_url", { url: `${on("/notes")}#comments` });
    expect(r.structuredContent).toMatchObject({ source: on("/notes"), sourceType: "url", title: "Zebra mode release notes" });
    const found = (await call(client, "query_documents", { query: "zebra mode stripes tables", topK: 5 })).structuredContent!;
    expect((found.results as { source: string }[])[0]!.source).toBe(on("/notes"));
    expect(found.sources).toContainEqual(expect.objectContaining({ source: on("/notes"), displayPath: on("/notes"), title: "Zebra mode release notes" }));
  });

  test("the main article is kept and the navigation and footer are dropped", async () => {
    const text = (await call(client, "read_file", { source: on("/notes") })).structuredContent!.text as string;
    expect(text).toContain("stripes every table");
    expect(text).not.toContain("Careers at Quokkasoft");
    expect(text).not.toContain("newsletter");
  });

  test("ingesting the URL again replaces it, and list_files shows it as a url item", async () => {
    const again = (await call(client, "ingest_url", { url: on("/notes") })).structuredContent!;
    const files = (await call(client, "list_files")).structuredContent!.files as { source: string; sourceType: string; displayPath: string }[];
    expect(files.filter((f) => f.source.startsWith(on("/notes")))).toEqual([
      expect.objectContaining({ source: on("/notes"), sourceType: "url", displayPath: on("/notes"), chunkCount: again.chunkCount }),
    ]);
  });

  test("a PDF goes through the PDF converter and carries no pages", async () => {
    const r = (await call(client, "ingest_url", { url: on("/handbook") })).structuredContent!;
    expect(r).toMatchObject({ source: on("/handbook"), sourceType: "url" });
    expect(r.chunkCount as number).toBeGreaterThan(0);
    const neighbors = (await call(client, "read_chunk_neighbors", { source: on("/handbook"), chunkIndex: 0, before: 0, after: 5 })).structuredContent!;
    const chunks = neighbors.chunks as Record<string, unknown>[];
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(chunk.pages).toBeUndefined();
  });

  test("text is indexed as it is, and a generic type is read by the URL's extension", async () => {
    expect((await call(client, "ingest_url", { url: on("/plain") })).structuredContent).toMatchObject({ sourceType: "url", title: "Not a heading here" });
    expect((await call(client, "ingest_url", { url: on("/raw/guide.md") })).structuredContent).toMatchObject({ title: "Wombat guide" });
  });

  test("a charset named by the server is decoded as that charset", async () => {
    await call(client, "ingest_url", { url: on("/latin1") });
    expect((await call(client, "read_file", { source: on("/latin1") })).structuredContent!.text).toContain("Café crème");
  });

  test("a type no converter reads is refused naming it", async () => {
    expect(errorText(await call(client, "ingest_url", { url: on("/photo") }))).toContain("is image/png, which ingest_url cannot convert");
  });

  test("a source id and title of the caller's own are used; an id that could pass for a path is refused before any fetch", async () => {
    const r = (await call(client, "ingest_url", { url: on("/notes"), source: "release-notes", title: "Release notes" })).structuredContent!;
    expect(r).toMatchObject({ source: "release-notes", sourceType: "url", title: "Release notes" });
    const before = site.hits.length;
    expect(errorText(await call(client, "ingest_url", { url: on("/notes"), source: "/etc/passwd" }))).toContain("is an absolute path");
    expect(site.hits.length).toBe(before);
  });

  test("a loopback URL is refused without ALLOW_PRIVATE_URLS, naming the host and the setting", async () => {
    const text = errorText(await call(client, "ingest_url", { url: `http://127.0.0.1:${site.port}/notes` }));
    expect(text).toContain("Refusing to fetch from host 127.0.0.1: it is a loopback address");
    expect(text).toContain("ALLOW_PRIVATE_URLS=1");
  });

  test("with ALLOW_PRIVATE_URLS=1 the loopback server is fetched and indexed", async () => {
    const open = urlApp({ ALLOW_PRIVATE_URLS: "1" });
    const c = await connectInMemory({ app: open.app });
    const url = `http://127.0.0.1:${site.port}/notes`;
    expect((await call(c, "ingest_url", { url })).structuredContent).toMatchObject({ source: url, title: "Zebra mode release notes" });
    expect(((await call(c, "query_documents", { query: "zebra" })).structuredContent!.sources as { displayPath: string }[])[0]!.displayPath).toBe(url);
    expect(open.root).not.toBe(root);
  });
});
