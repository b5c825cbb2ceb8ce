/**
 * The label flags of query and list (--label facet=value, repeatable; a
 * repeated facet matches any of its values; --date-from, --date-to) and how
 * a row's labels and date read in human output.
 */
import { AppError } from "../errors.ts";
import type { DocumentLabelFields, FilterCounts } from "../labels/document-labels.ts";
import { isCalendarDate, type LabelFilterInput } from "../labels/label-filter.ts";
import { warn } from "./output.ts";
import { repeatedFlag } from "./shared-args.ts";

export const labelArgs = {
  label: { type: "string", description: "Only documents with this label, facet=value (repeatable; a repeated facet matches any of its values)" },
  "date-from": { type: "string", description: "Only documents dated on or after YYYY-MM-DD" },
  "date-to": { type: "string", description: "Only documents dated on or before YYYY-MM-DD" },
} as const;

/** A --date-from or --date-to value, checked here so the error names the flag rather than the MCP field. */
function dateFlag(flag: "date-from" | "date-to", value: string | undefined): string | undefined {
  if (value === undefined || isCalendarDate(value)) return value;
  throw new AppError("INVALID_ARGUMENT", `--${flag} must be a date written YYYY-MM-DD, got ${JSON.stringify(value)}`, `Pass a calendar date such as --${flag} 2026-08-05; the range is inclusive.`);
}

/** The filter the flags give (empty when none is set). */
export function labelFilterFlags(rawArgs: string[], args: { "date-from"?: string; "date-to"?: string }): LabelFilterInput {
  const labels: Record<string, string[]> = {};
  for (const pair of repeatedFlag(rawArgs, "label")) {
    const at = pair.indexOf("=");
    if (at <= 0 || at === pair.length - 1) throw new AppError("INVALID_ARGUMENT", `--label takes facet=value, got ${JSON.stringify(pair)}`, "For example --label type=minutes; status lists the facets and their values.");
    (labels[pair.slice(0, at)] ??= []).push(pair.slice(at + 1));
  }
  return {
    ...(Object.keys(labels).length && { labels }),
    ...(args["date-from"] !== undefined && { dateFrom: dateFlag("date-from", args["date-from"]) }),
    ...(args["date-to"] !== undefined && { dateTo: dateFlag("date-to", args["date-to"]) }),
  };
}

/** " 2026-08-05 (name) type=minutes project=pilots(0.62, uncertain, else main)", or "" for a row without label fields. */
export function labelSuffix(row: DocumentLabelFields): string {
  if (row.labels === undefined && row.date === undefined) return "";
  const parts: string[] = [row.date ? `${row.date} (${row.dateSource})` : "undated"];
  for (const [facet, label] of Object.entries(row.labels ?? {})) {
    if (label.source !== "model") parts.push(`${facet}=${label.value}`);
    else parts.push(`${facet}=${label.value}(${label.confidence.toFixed(2)}${label.uncertain ? `, uncertain, else ${label.runnerUp}` : ""})`);
  }
  return ` ${parts.join(" ")}`;
}

/** Non-zero filter counts and the filter notice, as warn: lines on stderr. */
export function warnFilter(result: { filterCounts?: FilterCounts; filterNotice?: string }): void {
  const counts = result.filterCounts;
  if (counts?.unlabelled) warn(`${counts.unlabelled} documents in scope were left out only because they have no label for a filtered facet; after classify.toml is written or changed, a sync labels every document again from its stored text (minirag-mcp sync)`);
  if (counts?.undated) warn(`${counts.undated} documents in scope were left out only because they have no date`);
  if (result.filterNotice) warn(result.filterNotice);
}
