/**
 * The compiled server started with a configuration error answers every call
 * with the error and its fix: a plain-HTTP S3 endpoint without AWS_ALLOW_HTTP
 * was reported by status and by each tool without naming the variable to set.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { tempDir } from "../helpers.ts";
import { binaryEnv, killAll, mcpServer } from "./sync-procs.ts";

afterAll(killAll);

describe("a server whose configuration is invalid", () => {
  test("status and the other tools give the error with its fix", async () => {
    const env = { ...binaryEnv([tempDir("minirag-config-error-")], "s3://team-docs/index"), AWS_ENDPOINT_URL: "http://127.0.0.1:9", AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" };
    const { client, call } = await mcpServer(env);
    try {
      const status = await call("status");
      expect(status.structuredContent!.configError).toContain("plain-HTTP endpoint");
      expect(status.structuredContent!.configError).toContain("AWS_ALLOW_HTTP=true");
      const query = await call("query_documents", { query: "pumps" });
      expect(query.isError).toBe(true);
      expect(query.content[0]!.text).toContain("AWS_ALLOW_HTTP=true");
    } finally {
      await client.close();
    }
  });
});
