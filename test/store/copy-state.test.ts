import { describe, expect, test } from "bun:test";
import { filesOfVersion } from "../../src/store/copy-state.ts";

describe("the files a local copy of a version takes", () => {
  test("data and the manifests up to that version; never commit records or the latest-version hint", () => {
    const listed = ["_versions/18446744073709551614.manifest", "_versions/18446744073709551613.manifest", "_transactions/1-x.txn", "data/a.lance", "_versions/latest_version_hint.json"].map((key) => ({ key: `chunks.lance/${key}`, size: 1, etag: "e" }));
    expect(filesOfVersion(listed, "chunks", 1).map((f) => f.key)).toEqual(["chunks.lance/_versions/18446744073709551614.manifest", "chunks.lance/data/a.lance"]);
  });
});
