import { z } from "zod";
import { defineTool, WRITES_INDEX } from "../define-tool.ts";
import { mcpPath, requireApp, syncJobs } from "../context.ts";

export const syncStartTool = defineTool({
  name: "sync_start",
  title: "Start a sync",
  description:
    "Reconcile the index with the document roots, or with one folder or file inside them: ingest new and changed files, skip unchanged ones, " +
    "follow moved files without re-reading them, remove files that are gone (never those under a folder it cannot list). Returns a jobId at once and runs in the background; poll sync_status with it until it succeeds or fails.",
  input: z.object({ path: z.string().min(1, "must not be empty: leave path out to sync every root").optional().describe("Absolute folder or file inside a root; default: every root.") }),
  output: z.object({ jobId: z.string(), state: z.string(), startedAt: z.string() }),
  annotations: { ...WRITES_INDEX, destructiveHint: true },
  async run(args, ctx, extra) {
    const app = requireApp(ctx);
    const scope = args.path ? mcpPath(app, args.path) : undefined;
    const token = extra._meta?.progressToken;
    const onProgress =
      token === undefined
        ? undefined
        : (done: number, total: number, message: string) => {
            extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: done, total, message } }).catch(() => {});
          };
    const job = await syncJobs(ctx).start(scope, onProgress);
    return { jobId: job.jobId, state: job.state, startedAt: job.startedAt };
  },
});
