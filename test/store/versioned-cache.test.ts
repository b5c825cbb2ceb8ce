import { describe, expect, test } from "bun:test";
import type { ChunkStore } from "../../src/store/chunk-store.ts";
import { VersionedCache } from "../../src/store/versioned-cache.ts";

/** A store that reads one content version: all VersionedCache asks of it. */
const at = (version: string) => ({ contentVersion: async () => version }) as unknown as ChunkStore;

describe("values kept per table version", () => {
  test("the value of the version before stays beside the latest: a question kept on it is not built again", async () => {
    const builds: string[] = [];
    const cache = new VersionedCache<string>(async (store, previous) => {
      const version = (await store.contentVersion())!;
      builds.push(`${version} from ${previous}`);
      return `value@${version}`;
    });
    expect(await cache.at(at("1"))).toBe("value@1");
    expect(await cache.at(at("2"))).toBe("value@2");
    expect(await cache.at(at("1"))).toBe("value@1");
    expect(await cache.builtAt(at("1"))).toBe("value@1");
    expect(builds).toEqual(["1 from null", "2 from value@1"]);
    // Only the two latest are kept: the third version lets the first go.
    await cache.at(at("3"));
    expect(await cache.builtAt(at("1"))).toBeUndefined();
    expect(await cache.builtAt(at("2"))).toBe("value@2");
  });

  test("a build that fails is not kept as the version before either", async () => {
    let fail = true;
    const cache = new VersionedCache<string>(async (store) => {
      const version = (await store.contentVersion())!;
      if (version === "1" && fail) throw new Error("read failed");
      return `value@${version}`;
    });
    const first = cache.at(at("1"));
    const second = cache.at(at("2"));
    await expect(first).rejects.toThrow("read failed");
    expect(await second).toBe("value@2");
    fail = false;
    expect(await cache.at(at("1"))).toBe("value@1");
  });
});
