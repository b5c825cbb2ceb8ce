/** Reading the peers' query_documents answers (scripts/bench/peers/peers.ts), in the shapes mcp-local-rag 0.19.1 and the reference 1.0.0 send. */
import { expect, test } from "bun:test";
import { statusChunks } from "../../scripts/bench/peers/peer-quality.ts";
import { PEERS } from "../../scripts/bench/peers/peers.ts";

const [localRag, reference] = PEERS as [(typeof PEERS)[number], (typeof PEERS)[number]];
const text = (value: unknown) => ({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }] });

test("mcp-local-rag's hits are a JSON array in a text block, in rank order, by filePath (or source for ingested data)", () => {
  const result = text([
    { filePath: "/c/b-p03.md", chunkIndex: 0, text: "…", score: 0.14, fileTitle: "b p03" },
    { filePath: "/c/a-p01.md", chunkIndex: 2, text: "…", score: 0.2, fileTitle: "a p01" },
    { source: "clipboard://2024-12-30", chunkIndex: 0, text: "…", score: 0.3 },
  ]);
  expect(localRag.hitSources(result)).toEqual(["/c/b-p03.md", "/c/a-p01.md", "clipboard://2024-12-30"]);
});

test("the reference's hits are its structured content's results, in rank order, by source", () => {
  const answer = { results: [{ source: "/c/b-p03.md", chunkIndex: 0 }, { source: "/c/a-p01.md", chunkIndex: 1 }], sources: [], parents: {} };
  expect(reference.hitSources({ content: [{ type: "text", text: JSON.stringify(answer) }], structuredContent: answer })).toEqual(["/c/b-p03.md", "/c/a-p01.md"]);
  expect(reference.hitSources(text(answer))).toEqual(["/c/b-p03.md", "/c/a-p01.md"]);
});

test("an answer with no JSON text says what came back instead of scoring as no hits", () => {
  expect(() => localRag.hitSources({ content: [] })).toThrow("query_documents returned no text");
});

test("the quality runs ask each peer for its most hits, the latency runs for 10", () => {
  expect(localRag.queryArgs("q", 100)).toEqual({ query: "q", limit: 100 });
  expect(reference.queryArgs("q", 100)).toEqual({ query: "q", topK: 100 });
  expect(localRag.queryArgs("q")).toEqual({ query: "q", limit: 10 });
});

test("a peer's status JSON gives its chunk count; output without one gives none", () => {
  expect(statusChunks(JSON.stringify({ documentCount: 5, chunkCount: 1216, memoryUsage: 1 }, null, 2))).toBe(1216);
  expect(statusChunks("not json")).toBeUndefined();
  expect(statusChunks("{}")).toBeUndefined();
});
