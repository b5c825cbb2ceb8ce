/**
 * .ipynb -> Markdown: markdown cells as they are, code cells fenced with the
 * notebook's language, text outputs after them. Image outputs are dropped.
 */
import { basename } from "node:path";
import { AppError } from "../errors.ts";
import { decodeText } from "./decode-text.ts";
import type { Converted } from "./types.ts";

interface Cell {
  cell_type: string;
  source?: string | string[];
  outputs?: { output_type: string; text?: string | string[]; data?: Record<string, string | string[]>; ename?: string; evalue?: string }[];
}

const join = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join("") : (value ?? ""));

export function convertNotebook(bytes: Uint8Array, path: string): Converted {
  const { text, warnings } = decodeText(bytes, basename(path));
  let notebook: { cells?: Cell[]; metadata?: { kernelspec?: { language?: string }; language_info?: { name?: string }; title?: string } };
  try {
    notebook = JSON.parse(text);
  } catch (error) {
    throw new AppError("CONVERSION_FAILED", `${basename(path)}: not a valid notebook (${(error as Error).message})`, "Check that the file is a Jupyter notebook saved as JSON.");
  }
  const language = notebook.metadata?.kernelspec?.language ?? notebook.metadata?.language_info?.name ?? "";
  const parts: string[] = [];
  for (const cell of notebook.cells ?? []) {
    const source = join(cell.source).trim();
    if (cell.cell_type === "markdown" && source) parts.push(source);
    else if (cell.cell_type === "code") {
      if (source) parts.push(`\`\`\`${language}\n${source}\n\`\`\``);
      for (const output of cell.outputs ?? []) {
        const text = output.output_type === "stream" ? join(output.text) : output.output_type === "error" ? `${output.ename}: ${output.evalue}` : join(output.data?.["text/plain"]);
        if (text.trim()) parts.push(`\`\`\`\n${text.trim()}\n\`\`\``);
      }
    } else if (cell.cell_type === "raw" && source) parts.push(source);
  }
  return { markdown: parts.join("\n\n"), metadataTitle: notebook.metadata?.title, warnings };
}
