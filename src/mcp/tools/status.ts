import { z } from "zod";
import { IndexModel } from "../../store/index-identity.ts";
import { configErrorStatus, fullStatus } from "../../status.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { watchStatus } from "../live-index.ts";
import { WatchField } from "../watch-schema.ts";

export const statusTool = defineTool({
  name: "status",
  title: "Index status",
  description:
    "Report the configuration (roots, index path and, on object storage, its endpoint and access, the model a sync or query uses and why, and modelProblem when it cannot load (told from its name and files, without loading it), hybrid weight) and the health of the index: the model that built it (indexModel), chunk and source counts, " +
    "whether any chunks predate the current chunking scheme, a missing index, lost or damaged index files (indexDamage, indexWarning) and ingest_data or ingest_url items that lost their chunks (lostSources), each .miniragignore with its rule count, and roots that do not exist or cannot be listed; " +
    "watch: whether the index follows changes in the roots by itself, pending changes and the last watched sync; outsideRootsCount: indexed files outside the roots (a moved folder not yet synced). Answers even when the configuration is invalid, with configError.",
  input: z.object({}),
  output: z.object({
    version: z.string(),
    configError: z.string().optional(),
    roots: z.array(z.string()).optional(),
    dbPath: z.string().optional(),
    storage: z
      .object({ location: z.string(), endpoint: z.string(), credentials: z.string(), region: z.string().optional() })
      .optional()
      .describe("An index on object storage: where, through which endpoint, and the names (never the values) of the variables its credentials came from"),
    storageAccess: z
      .object({ read: z.boolean(), write: z.boolean().nullable(), problem: z.string().optional() })
      .optional()
      .describe("Whether this machine can read and write the index on object storage (write null: not checked), and why not"),
    model: z.string().optional().describe("The embedding model a sync or query uses"),
    modelReason: z.string().optional().describe("Why that model: MODEL_NAME, the model the index records, an index older than model records (the old default), or the default for a new index"),
    indexModel: IndexModel.optional(),
    indexModelNote: z.string().optional(),
    modelProblem: z.string().optional().describe("Why the model cannot load, told without loading it; searches fall back to keywords until it is fixed."),
    hybridWeight: z.number().optional(),
    chunkScheme: z.number().optional(),
    ocr: z.string().optional().describe('"tesseract" when scanned PDFs and images are read, else "unavailable"'),
    ocrHint: z.string().optional().describe("Why OCR is unavailable and how to fix it"),
    buildTarget: z.string().optional().describe("The release target of this executable (linux-x64, darwin-arm64, ...), or source"),
    libDir: z.string().optional().describe("Where the native libraries were loaded from"),
    modelPath: z.string().optional().describe("Where the embedding model is (or, with modelSource download, will be) read from"),
    modelSource: z.enum(["folder", "bundled", "cache", "download"]).optional(),
    tessdataFiles: z.record(z.string(), z.string()).optional().describe("OCR language code -> the .traineddata file that will be read"),
    chunkCount: z.number().optional(),
    sourceCount: z.number().optional(),
    staleChunkCount: z.number().optional(),
    missingDocVectorCount: z.number().optional().describe("Documents that still lack their document vector (an index from before them); the next sync makes them from their stored chunks. Present only when above zero."),
    unsignedSourceCount: z.number().optional().describe("Documents that still lack a look-alike signature; the next sync signs them from their stored text. Present only when above zero."),
    labels: z
      .object({
        file: z.string(),
        error: z.string().optional().describe("classify.toml could not be read; label filters refuse with this message."),
        facets: z
          .record(
            z.string(),
            z.object({
              question: z.string(),
              model: z.boolean().describe("True when the model answers this facet or may override its path rules."),
              values: z.record(z.string(), z.object({ description: z.string(), documents: z.number() })),
              unlabelled: z.number(),
              uncertain: z.number(),
            }),
          )
          .optional(),
        undated: z.number().optional(),
        model: z.enum(["on-demand", "loaded", "unavailable"]).optional(),
        modelHint: z.string().optional(),
      })
      .optional()
      .describe("Present only with a .minirag/classify.toml: facets, values with descriptions and document counts, unlabelled and uncertain counts, undated, and the label model's state."),
    pendingVectorCount: z
      .number()
      .optional()
      .describe("Chunks stored while no embedding model could load: found by keyword search only until a sync with a working model embeds them. Present only when above zero."),
    pendingVectorNote: z.string().optional(),
    failedFileCount: z
      .number()
      .optional()
      .describe("Files remembered as failing to convert, which sync does not try again until they change; list_files shows them as failed with the reason. Present only when above zero."),
    failedFileNote: z.string().optional(),
    schemeWarning: z.string().optional(),
    indexError: z.string().optional(),
    indexDamage: z.string().optional().describe("Data files of the index that are lost or damaged, the chunks they held, and the fix (sync repairs it). Searches and reads answer from the rest meanwhile."),
    lostSources: z
      .array(z.object({ source: z.string(), sourceType: z.string(), problem: z.string() }))
      .optional()
      .describe("ingest_data and ingest_url items whose chunks were lost with a damaged data file, with the fix; present only when there are any."),
    indexWarning: z.string().optional(),
    ignoreFiles: z.array(z.object({ path: z.string(), rules: z.number() })).optional(),
    rootWarnings: z.array(z.string()).optional(),
    outsideRootsCount: z.number().optional().describe("Indexed files that lie outside every root (a folder moved or renamed since it was synced); the next sync follows them. Present only when above zero."),
    outsideRootsNote: z.string().optional(),
    watch: WatchField.optional(),
  }),
  annotations: READ_ONLY,
  run: async (_args, ctx) => {
    if (!ctx.app) return configErrorStatus(ctx.configError ?? "Configuration error");
    const watch = watchStatus(ctx);
    return { ...(await fullStatus(ctx.app)), ...(watch ? { watch } : {}) };
  },
});
