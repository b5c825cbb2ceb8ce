/**
 * A folder served as an object store through the StoreObjects interface
 * (store/object-api.ts): listed and read as S3 lists and reads objects, keys
 * relative to the folder. A real LanceDB folder so served is a table on
 * "object storage" whose files the test can lose or change. `fail` makes
 * every request fail; `requests` counts them.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { StoreObjects } from "../../src/store/object-api.ts";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

export function folderBucket(folder: string, state = { fail: false, requests: 0 }): StoreObjects & { state: typeof state } {
  const refuse = () => {
    state.requests++;
    if (state.fail) throw new Error("The object store at http://127.0.0.1:9 cannot be reached");
  };
  return {
    state,
    where: `s3://bucket/index (${folder})`,
    async list(prefix) {
      refuse();
      // The file's inode and change time stand for the store's ETag: a file written anew under the same name has another.
      return filesUnder(folder)
        .map((f) => ({ key: relative(folder, f), size: statSync(f).size, etag: `${statSync(f).ino}-${statSync(f).ctimeMs}` }))
        .filter((f) => f.key.startsWith(prefix));
    },
    async download(key, path) {
      refuse();
      if (!existsSync(join(folder, key))) return false;
      copyFileSync(join(folder, key), path);
      return true;
    },
    async bytes(key) {
      refuse();
      return existsSync(join(folder, key)) ? new Uint8Array(readFileSync(join(folder, key))) : null;
    },
    get: () => Promise.reject(new Error("not used")),
    put: () => Promise.reject(new Error("not used")),
    delete: () => Promise.reject(new Error("not used")),
  };
}
