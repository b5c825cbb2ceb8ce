import { describe, expect, test } from "bun:test";
import { instructionsAppendFromEnv, loadConfig, type ConfigSources } from "../../src/config/load-config.ts";
import { AppError } from "../../src/errors.ts";

const load = (env: Record<string, string>, extra: Omit<ConfigSources, "env"> = {}) =>
  loadConfig({ env, cwd: "/x", home: "/home/u", ...extra });

function configError(env: Record<string, string>): string {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("CONFIG");
    return (error as AppError).message;
  }
  throw new Error(`expected a configuration error for ${JSON.stringify(env)}`);
}

describe("defaults (case 1)", () => {
  test("an empty environment roots the index at the current directory", () => {
    const c = load({});
    expect(c.roots).toEqual(["/x"]);
    expect(c.dbPath).toBe("/x/.minirag/lancedb");
    // Unset: the budget follows the model once it is known (200 for the default model, 110 for the old one; see chunk-budget.test.ts).
    expect(c.chunkTokenBudget).toBeUndefined();
    expect(c.hybridWeight).toBe(0.6);
    expect(c.maxFileSize).toBe(104857600);
    expect(c.allowPrivateUrls).toBe(false);
    expect(c.grouping).toBeUndefined();
    expect(c.maxDistance).toBeUndefined();
    expect(c.maxFiles).toBeUndefined();
    // Unset: the index chooses the model (store/model-choice.test.ts).
    expect(c.modelName).toBeUndefined();
    expect(c.ocrLanguages).toEqual(["eng", "rus"]);
    expect(c.ocrMinCharsPerPage).toBe(25);
  });

  test("empty DB_PATH, CACHE_DIR and MODEL_NAME mean their defaults", () => {
    const c = load({ DB_PATH: "", CACHE_DIR: " ", MODEL_NAME: "" });
    expect(c.dbPath).toBe("/x/.minirag/lancedb");
    expect(c.cacheDir).toBe("/home/u/.cache/minirag-mcp/models");
    expect(c.modelName).toBeUndefined();
  });
});

describe("roots: flags > BASE_DIRS > BASE_DIR > cwd, never merged", () => {
  test.each([
    ["BASE_DIRS wins over BASE_DIR (case 2)", { BASE_DIRS: '["/a","/b"]', BASE_DIR: "/c" }, undefined, ["/a", "/b"], "/a/.minirag/lancedb"],
    ["BASE_DIR alone", { BASE_DIR: "/c" }, undefined, ["/c"], "/c/.minirag/lancedb"],
    ["a blank BASE_DIR is ignored", { BASE_DIR: "  " }, undefined, ["/x"], "/x/.minirag/lancedb"],
    ["flags win over both", { BASE_DIRS: '["/a"]', BASE_DIR: "/c" }, ["/f1", "/f2"], ["/f1", "/f2"], "/f1/.minirag/lancedb"],
    ["~ is expanded and relative roots resolve against cwd", { BASE_DIRS: '["~/docs","rel"]' }, undefined, ["/home/u/docs", "/x/rel"], "/home/u/docs/.minirag/lancedb"],
  ] as const)("%s", (_name, env, flags, roots, dbPath) => {
    const c = load({ ...env }, { flags: flags ? { baseDirs: [...flags] } : {} });
    expect(c.roots).toEqual([...roots]);
    expect(c.dbPath).toBe(dbPath);
  });

  test("flags for db path, cache dir and model override the environment", () => {
    const c = load({ DB_PATH: "/env/db", CACHE_DIR: "/env/cache", MODEL_NAME: "/env/model" }, { flags: { dbPath: "db", cacheDir: "/f/cache", modelName: "/f/model" } });
    expect(c.dbPath).toBe("/x/db");
    expect(c.cacheDir).toBe("/f/cache");
    expect(c.modelName).toBe("/f/model");
  });
});

describe("invalid values name the variable, the value and what is allowed", () => {
  test.each([
    // case 3
    [{ BASE_DIRS: "/a:/b" }, "BASE_DIRS", "JSON array"],
    [{ BASE_DIRS: "[]" }, "BASE_DIRS", "JSON array"],
    [{ BASE_DIRS: '["ok",""]' }, "BASE_DIRS", "non-empty"],
    [{ BASE_DIRS: "not json" }, "BASE_DIRS", "JSON array"],
    [{ BASE_DIRS: '"str"' }, "BASE_DIRS", "JSON array"],
    // case 4
    // Without the model only the widest range is known; the model's own limit is checked when it loads.
    [{ CHUNK_TOKEN_BUDGET: "0" }, "CHUNK_TOKEN_BUDGET", "from 16 to 8192"],
    [{ CHUNK_TOKEN_BUDGET: "8193" }, "CHUNK_TOKEN_BUDGET", "from 16 to 8192"],
    [{ CHUNK_TOKEN_BUDGET: "100.5" }, "CHUNK_TOKEN_BUDGET", "integer"],
    [{ RAG_GROUPING: "" }, "RAG_GROUPING", "similar or related"],
    [{ RAG_GROUPING: "nearby" }, "RAG_GROUPING", "similar or related"],
    [{ RAG_FUSION: "linear" }, "RAG_FUSION", "relative or rrf"],
    [{ ALLOW_PRIVATE_URLS: "2" }, "ALLOW_PRIVATE_URLS", "1, true, yes, on"],
    [{ MAX_FILE_SIZE: "" }, "MAX_FILE_SIZE", ">= 1"],
    [{ MAX_FILE_SIZE: "0" }, "MAX_FILE_SIZE", ">= 1"],
    [{ MAX_FILE_SIZE: "10MB" }, "MAX_FILE_SIZE", "integer"],
    [{ RAG_MAX_FILES: "0" }, "RAG_MAX_FILES", ">= 1"],
    [{ RAG_OCR_MIN_CHARS_PER_PAGE: "-1" }, "RAG_OCR_MIN_CHARS_PER_PAGE", ">= 0"],
    [{ RAG_MAX_DISTANCE: "-0.5" }, "RAG_MAX_DISTANCE", ">= 0"],
    [{ RAG_MAX_DISTANCE: "nan" }, "RAG_MAX_DISTANCE", "number"],
    [{ RAG_HYBRID_WEIGHT: "1.5" }, "RAG_HYBRID_WEIGHT", "from 0 to 1"],
    [{ RAG_HYBRID_WEIGHT: "" }, "RAG_HYBRID_WEIGHT", "from 0 to 1"],
    [{ RAG_OCR_LANG: " " }, "RAG_OCR_LANG", "eslav"],
    [{ RAG_OCR_LANG: "klingon" }, "RAG_OCR_LANG", "eslav"],
  ] as const)("%o", (env, name, allowed) => {
    const message = configError({ ...env });
    expect(message).toContain(name);
    expect(message).toContain(JSON.stringify(Object.values(env)[0]));
    expect(message).toContain(allowed);
  });
});

describe("accepted values", () => {
  test.each([
    [{ CHUNK_TOKEN_BUDGET: "16" }, "chunkTokenBudget", 16],
    [{ CHUNK_TOKEN_BUDGET: "128" }, "chunkTokenBudget", 128],
    [{ CHUNK_TOKEN_BUDGET: "350" }, "chunkTokenBudget", 350],
    [{ ALLOW_PRIVATE_URLS: "TRUE" }, "allowPrivateUrls", true],
    [{ ALLOW_PRIVATE_URLS: " yes " }, "allowPrivateUrls", true],
    [{ ALLOW_PRIVATE_URLS: "" }, "allowPrivateUrls", false],
    [{ ALLOW_PRIVATE_URLS: "off" }, "allowPrivateUrls", false],
    [{ RAG_HYBRID_WEIGHT: "0" }, "hybridWeight", 0],
    [{ RAG_HYBRID_WEIGHT: "1" }, "hybridWeight", 1],
    [{ RAG_GROUPING: "related" }, "grouping", "related"],
    [{}, "fusion", "relative"],
    [{ RAG_FUSION: "rrf" }, "fusion", "rrf"],
    [{ RAG_MAX_DISTANCE: "0.75" }, "maxDistance", 0.75],
    [{ RAG_MAX_FILES: "3" }, "maxFiles", 3],
    [{ RAG_OCR_MIN_CHARS_PER_PAGE: "0" }, "ocrMinCharsPerPage", 0],
    [{ RAG_INSTRUCTIONS_APPEND: "  hello  " }, "instructionsAppend", "hello"],
    [{ RAG_INSTRUCTIONS_APPEND: "   " }, "instructionsAppend", undefined],
  ] as const)("%o", (env, key, value) => {
    expect(load({ ...env })[key]).toBe(value);
  });
});

describe("DB_PATH is a folder on this machine or an object-storage URI", () => {
  const s3 = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "sekrit", AWS_ENDPOINT_URL: "https://minio.example:9000/" };

  test("a server on object storage does not watch unless RAG_WATCH asks (a reader's catch-up sync would drop the writer's files); a local index watches by default", () => {
    expect(load({ ...s3, DB_PATH: "s3://team/index" }).watch).toBe(false);
    expect(load({ ...s3, DB_PATH: "s3://team/index", RAG_WATCH: "1" }).watch).toBe(true);
    expect(load({}).watch).toBe(true);
  });

  test("status can tell a reader by default from watching turned off by hand", () => {
    expect(load({ ...s3, DB_PATH: "s3://team/index" }).readerByDefault).toBe(true);
    expect(load({ ...s3, DB_PATH: "s3://team/index", RAG_WATCH: "false" }).readerByDefault).toBeUndefined();
    expect(load({ ...s3, DB_PATH: "s3://team/index" }, { flags: { watch: false } }).readerByDefault).toBeUndefined();
    expect(load({ RAG_WATCH: "false" }).readerByDefault).toBeUndefined();
  });

  test("s3://, gs:// and az:// are kept as URIs (scheme lower-cased, slashes trimmed), never resolved as relative paths", () => {
    expect(load({ ...s3, DB_PATH: "s3://team/index/" }).dbPath).toBe("s3://team/index");
    expect(load({ DB_PATH: "GS://bucket/x" }).dbPath).toBe("gs://bucket/x");
    expect(load({ ...s3, DB_PATH: "s3://team.docs/Team_Index-2.v1/sub" }).dbPath).toBe("s3://team.docs/Team_Index-2.v1/sub");
    expect(load({ ...s3, DB_PATH: "s3://team/.hidden/index" }).dbPath).toBe("s3://team/.hidden/index");
    expect(load({ DB_PATH: "/local/index", AZURE_STORAGE_ACCOUNT_NAME: "acct" }, { flags: { dbPath: "az://container/index" } }).dbPath).toBe("az://container/index");
  });

  test.each([
    [{ DB_PATH: "ftp://host/index" }, {}, 'DB_PATH="ftp://host/index" is a URI this version cannot keep an index at'],
    [{ DB_PATH: "s3://" }, {}, 'DB_PATH="s3://" names no bucket'],
    [{}, { dbPath: "http://host/index" }, '--db-path="http://host/index" is a URI'],
    // One spelling for LanceDB and the lease (found by a probe: two syncs ran at once on one index).
    [{ DB_PATH: "s3://team/sp ace/idx" }, {}, 'holds "sp ace": an index location on object storage may use only letters'],
    [{ DB_PATH: "s3://team/отдел/index" }, {}, 'holds "отдел"'],
    [{ DB_PATH: "s3://team/sp%20ace/idx" }, {}, 'holds "sp%20ace"'],
    [{ DB_PATH: "s3://team/q?x=1" }, {}, 'holds "q?x=1"'],
    [{ DB_PATH: "s3://team/pre#frag" }, {}, 'holds "pre#frag"'],
    [{ DB_PATH: "s3://team/../esc" }, {}, 'holds ".."'],
    [{ DB_PATH: "s3://team/a//b" }, {}, 'holds ""'],
    [{ AZURE_STORAGE_ACCOUNT_NAME: "acct" }, { dbPath: "az://con tainer/x" }, 'holds "con tainer"'],
  ])("%o %o: refused by name", (env, flags, message) => {
    const error = (() => {
      try {
        load(env, { flags });
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error!.code).toBe("CONFIG");
    expect(error!.message).toContain(message);
  });

  test("a file:// URI is its path; a relative path stays a path", () => {
    expect(load({ DB_PATH: "file:///srv/index" }).dbPath).toBe("/srv/index");
    expect(load({ DB_PATH: "idx" }).dbPath).toBe("/x/idx");
  });
});

describe("CACHE_DIR default follows the platform's user cache folder", () => {
  test("Linux honours XDG_CACHE_HOME", () => {
    expect(load({ XDG_CACHE_HOME: "/xdg" }).cacheDir).toBe("/xdg/minirag-mcp/models");
  });
});

describe("RAG_INSTRUCTIONS_APPEND on its own", () => {
  test.each([
    [{}, undefined],
    [{ RAG_INSTRUCTIONS_APPEND: "  X  " }, "X"],
    [{ RAG_INSTRUCTIONS_APPEND: "   " }, undefined],
    [{ RAG_INSTRUCTIONS_APPEND: "Y", BASE_DIRS: "broken" }, "Y"],
  ])("%o -> %o", (env, expected) => {
    expect(instructionsAppendFromEnv(env)).toBe(expected);
  });
});
