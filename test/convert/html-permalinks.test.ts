import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { convertHtml, htmlToMarkdown } from "../../src/convert/html.ts";
import { fakeCount } from "../chunk/fake-counter.ts";
import { REPO_ROOT } from "../helpers.ts";

const page = (body: string) => htmlToMarkdown(`<html><head><title>T</title></head><body>${body}</body></html>`).markdown;

describe("a Sphinx page (the Ubuntu Packaging Guide, trimmed)", () => {
  const path = join(REPO_ROOT, "test/fixtures/html/ubuntu-packaging-guide.trimmed.en.html");
  const md = convertHtml(new Uint8Array(readFileSync(path)), path).markdown;

  test("its headings read as their text, without the ¶ permalink Sphinx puts after each", () => {
    expect(md).not.toContain("¶");
    expect(md).not.toContain("Permalink to this headline");
    expect(md).toContain("\n# Ubuntu Packaging Guide\n");
    expect(md).toContain("\n### 1\\. Introduction to Ubuntu Development\n");
    expect(md).toContain("\n##### 2.1.1. Create your GPG key\n");
  });

  test("its chunks' breadcrumbs name the sections and nothing else", () => {
    const { chunks } = chunkDocument(md, { title: "Ubuntu Packaging Guide", seedTitle: true, budget: 200, count: fakeCount });
    const crumbs = chunks.flatMap((c) => c.text.split("\n").filter((line) => line.includes(" > ")));
    expect(crumbs.some((line) => /^Ubuntu Packaging Guide > Articles > .*Getting Set Up > 2\.1\. Install basic packaging software > 2\.1\.1\. Create your GPG key$/.test(line))).toBe(true);
    expect(crumbs.join("\n")).not.toMatch(/¶|\]\(#/);
  });

  test("links in the text stay links", () => {
    expect(md).toContain("[communication article](index.html#document-ubuntu-packaging-guide/communication)");
  });
});

describe("heading permalinks of other generators", () => {
  test.each([
    ["MkDocs", '<h2 id="setup">Setup<a class="headerlink" href="#setup" title="Permanent link">&para;</a></h2>'],
    ["Jupyter nbconvert", '<h2 id="setup">Setup<a class="anchor-link" href="#setup">&#182;</a></h2>'],
    ["a § anchor before the text", '<h2 id="setup"><a href="#setup">§</a> Setup</h2>'],
    ["a # anchor", '<h2 id="setup">Setup <a href="#setup">#</a></h2>'],
  ])("%s: the heading keeps only its text", (_name, heading) => {
    expect(page(`${heading}<p>Body text.</p>`)).toBe("## Setup\n\nBody text.");
  });

  test("a heading that is itself a link to a section keeps its text and link", () => {
    expect(page('<h2><a href="#setup">Setup</a></h2><p>Body text.</p>')).toBe("## [Setup](#setup)\n\nBody text.");
  });
});
