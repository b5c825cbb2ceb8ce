/** Every relative link in README.md and docs/*.md reaches a file that exists, and a #fragment a heading of that file. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { documentFiles } from "../../scripts/docs/generate-tables.ts";
import { REPO_ROOT } from "../helpers.ts";

/** GitHub's anchor for a heading: lower case, punctuation dropped except - and _, spaces as -. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors a Markdown file's headings make, outside code blocks. */
function anchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^( *)```[\s\S]*?^\1```/gm, "");
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

describe("links in README.md and docs/", () => {
  test("slugs follow GitHub's rule", () => {
    expect(slug("Where a 100k query's time goes")).toBe("where-a-100k-querys-time-goes");
    expect(slug("What ingest_url may reach")).toBe("what-ingest_url-may-reach");
    expect(slug("Offline (air-gapped) machines")).toBe("offline-air-gapped-machines");
  });

  test("every relative link names a file that exists and, with a #fragment, a heading in it", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of documentFiles()) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8").replace(/^( *)```[\s\S]*?^\1```/gm, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        checked++;
        const [path, fragment] = target.split("#");
        const resolved = path ? normalize(join(dirname(file), path)) : file;
        if (!existsSync(join(REPO_ROOT, resolved))) broken.push(`${file}: ${target} (no ${resolved})`);
        else if (fragment && resolved.endsWith(".md") && !anchors(readFileSync(join(REPO_ROOT, resolved), "utf8")).has(fragment)) broken.push(`${file}: ${target} (no heading #${fragment} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});
