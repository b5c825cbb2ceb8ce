/**
 * A tiny path-style S3 server in memory (GET, PUT, DELETE of /bucket/key),
 * for what moto cannot show: a store that ignores If-None-Match and If-Match,
 * as some S3 clones do. `honoursConditions` makes it answer 412 as S3 does.
 * Signatures are not checked. The real store is tested against moto_server
 * in scripts/accept/team-index.test.ts.
 */
export interface S3StandIn {
  endpoint: string;
  objects: Map<string, { body: string; etag: string }>;
  /** Every request, as "METHOD /bucket/key". */
  requests: string[];
  stop(): void;
}

export function startS3StandIn(options: { honoursConditions: boolean; bucket?: string; status?: number }): S3StandIn {
  const objects = new Map<string, { body: string; etag: string }>();
  const requests: string[] = [];
  let counter = 0;
  const bucket = options.bucket ?? "team";
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      const path = decodeURIComponent(new URL(request.url).pathname);
      requests.push(`${request.method} ${path}`);
      if (options.status) return new Response(`<Error><Code>AccessDenied</Code></Error>`, { status: options.status });
      if (!path.startsWith(`/${bucket}/`)) return new Response("<Error><Code>NoSuchBucket</Code></Error>", { status: 404 });
      const key = path.slice(bucket.length + 2);
      const found = objects.get(key);
      const ifNoneMatch = request.headers.get("if-none-match");
      const ifMatch = request.headers.get("if-match");
      const refused = options.honoursConditions && ((ifNoneMatch === "*" && found) || (ifMatch !== null && found?.etag !== ifMatch));
      if (request.method === "GET") {
        return found ? new Response(found.body, { headers: { etag: found.etag } }) : new Response("<Error><Code>NoSuchKey</Code></Error>", { status: 404 });
      }
      if (refused) return new Response("<Error><Code>PreconditionFailed</Code></Error>", { status: 412 });
      if (request.method === "PUT") {
        const etag = `"${++counter}"`;
        objects.set(key, { body: await request.text(), etag });
        return new Response("", { headers: { etag } });
      }
      if (request.method === "DELETE") {
        objects.delete(key);
        return new Response(null, { status: 204 });
      }
      return new Response("", { status: 405 });
    },
  });
  return { endpoint: `http://127.0.0.1:${server.port}`, objects, requests, stop: () => server.stop(true) };
}
