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
});

export const LookAlikes = z
  .array(LookAlike)
  .optional()
  .describe("Up to 3 other indexed documents sharing most of this one's text (another version, a sibling from one template), most first; absent when none. Check both before quoting a figure.");

export const SourceRef = z.object({ source: z.string(), title: z.string(), hits: z.number().int(), displayPath: z.string(), lookAlikes: LookAlikes });

export const IngestResult = z.object({ source: z.string(), sourceType: z.string(), title: z.string(), chunkCount: z.number().int() });

export const Scope = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .describe("Only sources under this absolute path or source-id prefix (several are OR-ed); matching stops at '/'.");

export function scopeList(scope: string | string[] | undefined): string[] | undefined {
  if (scope === undefined) return undefined;
  const list = (Array.isArray(scope) ? scope : [scope]).filter((s) => s.trim());
  return list.length ? list : undefined;
}

export const FilePath = z.string().describe("Absolute path of a file inside a document root.");
export const SourceId = z.string().describe("Source id of a data or url item (for files, the absolute path).");
