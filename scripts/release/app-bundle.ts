/**
 * What the executable's JavaScript is made of: its entry points and the
 * imports left out of the bundle. scripts/build.ts compiles with these, and
 * bundledInputs() bundles the same way without compiling, so a test can see
 * which packages the binary carries.
 */
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "../..");

/**
 * The program, then the workers it starts by their URL inside $bunfs: the conversion worker
 * (src/convert/isolated-convert.ts), each OCR thread (with the WASM core inlined; src/ocr/tesseract-client.ts)
 * and the model thread (src/embed/model-thread.ts).
 */
export const ENTRY_POINTS = ["src/main.ts", "src/convert/convert-worker.ts", "src/ocr/tesseract-worker.ts", "src/embed/embed-worker.ts"].map((p) => join(root, p));

export const EXTERNAL = [
  // Native addons are side-loaded from lib/, never embedded (embedded ones are extracted to TMPDIR).
  "@lancedb/lancedb-*",
  "*.node",
  // unpdf's own pdf.js build (1.7 MB of JavaScript), which it imports only when no pdf.js was handed to it:
  // src/convert/pdf-engine.ts hands it pdfjs-dist's full build first, so that import is never reached.
  "unpdf/pdfjs",
];

/** Source bytes per bundled file (paths relative to the repository), from a bundle made as the build makes it, without compiling. */
export async function bundledInputs(): Promise<Map<string, number>> {
  const result = await Bun.build({ entrypoints: ENTRY_POINTS, target: "bun", format: "esm", splitting: true, external: EXTERNAL, metafile: true, define: { MINIRAG_TOOL_LISTING: '"[]"' } });
  if (!result.success) throw new Error(`bundling failed: ${result.logs.join("\n")}`);
  const meta = (typeof result.metafile === "string" ? JSON.parse(result.metafile) : result.metafile) as { inputs: Record<string, { bytes: number }> };
  return new Map(Object.entries(meta.inputs).map(([path, input]) => [path.replace(`${root}/`, ""), input.bytes]));
}
