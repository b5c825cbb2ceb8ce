/** Every tool the server offers, in the order tools/list shows them. */
import type { AnyTool } from "../define-tool.ts";
import { deleteFileTool } from "./delete-file.ts";
import { findMentionsTool } from "./find-mentions.ts";
import { ingestDataTool } from "./ingest-data.ts";
import { ingestFileTool } from "./ingest-file.ts";
import { ingestUrlTool } from "./ingest-url.ts";
import { listFilesTool } from "./list-files.ts";
import { queryDocumentsTool } from "./query-documents.ts";
import { readChunkNeighborsTool } from "./read-chunk-neighbors.ts";
import { readFileTool } from "./read-file.ts";
import { statusTool } from "./status.ts";
import { syncStartTool } from "./sync-start.ts";
import { syncStatusTool } from "./sync-status.ts";

export const TOOLS: AnyTool[] = [
  syncStartTool,
  syncStatusTool,
  ingestFileTool,
  ingestDataTool,
  ingestUrlTool,
  queryDocumentsTool,
  findMentionsTool,
  readChunkNeighborsTool,
  readFileTool,
  listFilesTool,
  deleteFileTool,
  statusTool,
];
