/** zod shapes shared by several tools' outputs. */
import { z } from "zod";

export const ChunkResult = z.object({
  text: z.string(),
  source: z.string(),
  title: z.string(),
  chunkIndex: z.number().int(),
  score: z.number(),
  distance: z.number().nullable(),
  parentId: z.string().nullable(),
  pages: z.string().optional().describe("A PDF passage's pages: \"12\", or \"12-13\" across a page break; absent where not certain and for other formats."),
});

export const LookAlike = z.object({
  source: z.string(),
  displayPath: z.string(),
  overlap: z.number().describe("Estimated share of five-word runs the two texts have in common (Jaccard), 0.5-1."),
  date: z.string().optional().describe("The other document's date (YYYY-MM-DD) when one is known (with a classify.toml)."),
});

export const LookAlikes = z
  .array(LookAlike)
  .optional()
  .describe("Up to 3 other indexed documents sharing most of this one's text (another version, a sibling from one template), most first; absent when none. Check both before quoting a figure.");

/** A document's labels and date (present only when the corpus has a classify.toml). */
export const LabelFields = {
  labels: z
    .record(
      z.string(),
      z.object({
        value: z.string(),
        confidence: z.number().describe("1 for a path or default label; the model's calibrated probability otherwise."),
        source: z.enum(["path", "default", "model"]),
        runnerUp: z.string().nullable().describe("The model's second choice; an uncertain label also matches it in filters."),
        uncertain: z.boolean(),
      }),
    )
    .optional()
    .describe("facet -> label, with a classify.toml; a facet that does not apply or is not labelled yet is absent."),
  date: z.string().nullable().optional().describe("The document date, YYYY-MM-DD; null when none was found."),
  dateSource: z.enum(["document", "name", "file"]).nullable().optional().describe("Where the date came from: its header, its file name, or the file time (which a bulk copy makes meaningless)."),
};

export const SourceRef = z.object({ source: z.string(), title: z.string(), hits: z.number().int(), displayPath: z.string(), lookAlikes: LookAlikes, ...LabelFields });

/** Label and date filter arguments of query_documents and list_files. */
export const LabelFilterArgs = {
  labels: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .optional()
    .describe('Only documents with these labels, e.g. {"type": "minutes"} or {"type": ["minutes", "report"]}: values of one facet are alternatives, facets combine. status lists facets and values. Needs a classify.toml.'),
  dateFrom: z.string().optional().describe("Only documents dated on or after this day, YYYY-MM-DD."),
  dateTo: z.string().optional().describe("Only documents dated on or before this day, YYYY-MM-DD."),
};

/** Output fields a label or date filter adds. */
export const FilterOutputs = {
  filterCounts: z
    .object({ unlabelled: z.number().int(), undated: z.number().int() })
    .optional()
    .describe("With a filter: documents in scope left out only because they lack a label for a filtered facet, or a date. Non-zero means the answer may be incomplete."),
  filterNotice: z.string().optional().describe("Why a filtered facet may be missing on documents (the label model is unavailable)."),
};

export const IngestResult = z.object({
  source: z.string(),
  sourceType: z.string(),
  title: z.string(),
  chunkCount: z.number().int(),
  labelProblem: z.string().optional().describe("With a classify.toml: what labels the document was stored without, and why."),
  notice: z.string().optional().describe("Set when no embedding model could load: the text was stored for keyword search and gets its vectors at the next sync with a model."),
});

const ScopeItem = z.string().min(1, "must not be empty: leave scope out to search everything");
export const Scope = z
  .union([ScopeItem, z.array(ScopeItem)])
  .optional()
  .describe("Only sources under this absolute path or source-id prefix (several are OR-ed); matching stops at '/'.");

export function scopeList(scope: string | string[] | undefined): string[] | undefined {
  if (scope === undefined) return undefined;
  const list = (Array.isArray(scope) ? scope : [scope]).filter((s) => s.trim());
  return list.length ? list : undefined;
}

export const FilePath = z.string().min(1, "must not be empty: pass the file's absolute path").describe("Absolute path of a file inside a document root.");
export const SourceId = z.string().min(1, "must not be empty: pass the source id as list_files shows it").describe("Source id of a data or url item (for files, the absolute path; on a team index, the file's `<root name>/<path>` as list_files shows it).");
