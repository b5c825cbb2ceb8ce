import { z } from "zod";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { syncJobs } from "../context.ts";
import { watchStatus } from "../live-index.ts";
import { WatchField } from "../watch-schema.ts";

const Counts = z.object({
  scanned: z.number(),
  ingested: z.number(),
  skipped: z.number(),
  moved: z.number(),
  deleted: z.number(),
  relabelled: z.number().describe("Documents whose labels were rewritten from their stored text (classify.toml changed, a model problem, a move); 0 without a classify.toml."),
  signed: z.number().describe("Documents given a look-alike signature from their stored text, such as every document of an index built before signatures existed."),
  docVectors: z.number().describe("Documents given their own document vector from their stored chunks, such as every document of an index built before document vectors existed."),
  embedded: z.number().describe("Documents stored while no embedding model could load whose chunks got their vectors now, from the stored text."),
  ignored: z.number(),
  unreadable: z.number(),
  unsupported: z.number(),
  failed: z.number(),
  failedBefore: z.number().describe("Files that failed to convert on an earlier sync and have not changed since: not tried again; named in failedBefore."),
});

export const syncStatusTool = defineTool({
  name: "sync_status",
  title: "Sync job status",
  description:
    "Poll a sync started by sync_start: its state (pending, running, succeeded, failed), counts that fill in while it runs " +
    "(scanned, ingested, skipped, moved, deleted, relabelled, signed, docVectors, embedded, ignored, unreadable, unsupported, failed, failedBefore), per-file errors, failedBefore (files that failed on an earlier sync and are unchanged, not tried again), unlistedFolders (folders it could not list; " +
    "everything indexed under them was kept), repair and lostSources when it repaired a damaged index first, startedAt and finishedAt. Only the latest job is kept. " +
    "watch shows the live index: the server syncs changed files by itself, so a job is needed only after watching was off.",
  input: z.object({ jobId: z.string().describe("The jobId sync_start returned.") }),
  output: z.object({
    jobId: z.string(),
    state: z.enum(["pending", "running", "succeeded", "failed"]),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    counts: Counts,
    errors: z.array(z.object({ source: z.string(), error: z.string() })),
    failedBefore: z
      .array(z.object({ source: z.string(), error: z.string(), failedAt: z.string() }))
      .describe("Files remembered as failing to convert, with the error and when; a change to the file, or ingest_file, tries one again."),
    unlistedFolders: z.array(z.object({ folder: z.string(), reason: z.string(), kept: z.number() })),
    warnings: z.array(z.object({ source: z.string(), warning: z.string() })).describe("Files indexed with a caveat from their converter."),
    unsupported: z.record(z.string(), z.number()).describe('Files no converter reads, by extension: {".key": 3}.'),
    error: z.string().nullable(),
    notice: z.string().optional().describe("Set when no embedding model could load: files were stored for keyword search only and get vectors at the next sync with a model."),
    repair: z.string().optional().describe("Set when the sync repaired a damaged index first: the lost data files it dropped (their files were ingested again) or the indexes it rebuilt."),
    lostSources: z
      .array(z.object({ source: z.string(), sourceType: z.string(), problem: z.string() }))
      .optional()
      .describe("ingest_data and ingest_url items whose chunks were lost with a damaged data file: no sync can rebuild them; ingest them again or delete them."),
    watch: WatchField.optional(),
  }),
  annotations: READ_ONLY,
  run: (args, ctx) => {
    const watch = watchStatus(ctx);
    return { ...syncJobs(ctx).status(args.jobId), ...(watch ? { watch } : {}) };
  },
});
