/** What status says about watching when the server does not watch (src/mcp/live-index.ts watchStatus). */
import { describe, expect, test } from "bun:test";
import type { App } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import type { ToolContext } from "../../src/mcp/context.ts";
import { watchStatus } from "../../src/mcp/live-index.ts";

const s3 = { DB_PATH: "s3://team/index", AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "sekrit", AWS_ENDPOINT_URL: "https://minio.example:9000/", BASE_DIR: "/srv/docs" };
/** Only the configuration is read while no watcher runs. */
const ctxWith = (env: Record<string, string>) => ({ app: { config: loadConfig({ env, cwd: "/x", home: "/home/u" }) } as App }) as ToolContext;

describe("watching that is off", () => {
  test("on a team index without RAG_WATCH, the note gives that reason and RAG_WATCH=1, not a setting the user never made", () => {
    const watch = watchStatus(ctxWith(s3))!;
    expect(watch.enabled).toBe(false);
    expect(watch.note).toContain("team index on object storage");
    expect(watch.note).toContain("RAG_WATCH=1");
    expect(watch.note).not.toContain("RAG_WATCH=false or serve --no-watch");
  });

  test("turned off by RAG_WATCH=false, the note names that", () => {
    expect(watchStatus(ctxWith({ ...s3, RAG_WATCH: "false" }))!.note).toContain("RAG_WATCH=false or serve --no-watch");
    expect(watchStatus(ctxWith({ BASE_DIR: "/srv/docs", RAG_WATCH: "false" }))!.note).toContain("RAG_WATCH=false or serve --no-watch");
  });
});
