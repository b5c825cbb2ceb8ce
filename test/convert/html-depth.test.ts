import { describe, expect, spyOn, test } from "bun:test";
import TurndownService from "turndown/lib/turndown.browser.es.js";
import { parseHTML } from "linkedom";
import { capNesting, MAX_DEPTH, type DepthNode } from "../../src/convert/html-depth.ts";
import { htmlToMarkdown } from "../../src/convert/html.ts";

const nested = (depth: number, open: string, close: string, inner: string) => `<html><body>${open.repeat(depth)}${inner}${close.repeat(depth)}</body></html>`;

describe("HTML nested deeper than turndown can walk", () => {
  test("20,000 nested <div>s convert to their text (10,000 once overflowed turndown's stack)", () => {
    const { markdown } = htmlToMarkdown(nested(20_000, "<div>", "</div>", "the deepest words"));
    expect(markdown).toBe("the deepest words");
  });

  test("text at every level of a deep nest is kept, words apart, in document order", () => {
    const { markdown } = htmlToMarkdown(nested(1_000, "<div>level ", "</div>", "bottom"));
    const words = markdown.split(/\s+/);
    expect(words.filter((w) => w === "level")).toHaveLength(1_000);
    expect(words.at(-1)).toBe("bottom");
  });

  test("12 nested tables take one turndown pass (each table's cells were converted again by every table around it: 2^12 passes)", () => {
    const passes = spyOn(TurndownService.prototype, "turndown");
    const { markdown } = htmlToMarkdown(nested(12, "<table><tr><td>cell ", "</td></tr></table>", "innermost"));
    expect(passes).toHaveBeenCalledTimes(1);
    passes.mockRestore();
    expect(markdown).toStartWith("| cell ");
    expect(markdown).toContain("innermost");
    expect(markdown.match(/cell/g)).toHaveLength(12);
  });

  test("a nest is capped at MAX_DEPTH below the root: deeper elements become their text; shallower ones stay elements", () => {
    const { document } = parseHTML(nested(MAX_DEPTH + 5, "<div><b>x</b>", "</div>", "end"));
    expect(capNesting(document.body as unknown as DepthNode)).toBe(1);
    expect(document.body.querySelectorAll("div")).toHaveLength(MAX_DEPTH);
    expect(document.body.querySelectorAll("b")).toHaveLength(MAX_DEPTH - 1);
    const deepest = document.body.querySelectorAll("div")[MAX_DEPTH - 1]!;
    expect(deepest.innerHTML).toBe("x x x x x x end");
  });

  test("a page no deeper than the cap is left as it was", () => {
    const { document } = parseHTML(nested(20, "<div><p>para</p>", "</div>", "end"));
    const before = document.body.innerHTML;
    expect(capNesting(document.body as unknown as DepthNode)).toBe(0);
    expect(document.body.innerHTML).toBe(before);
  });
});

describe("tables, now assembled from their cells' converted text", () => {
  test("a header row, escaped pipes, paragraphs in a cell joined, a nested table flattened into its cell", () => {
    const html = "<table><tr><th>a</th><th>b|c</th></tr><tr><td><p>x</p><p>y</p></td><td><table><tr><td>in</td><td>ner</td></tr></table></td></tr></table>";
    expect(htmlToMarkdown(html).markdown).toBe("| a | b\\|c |\n| --- | --- |\n| x y | \\| in \\| ner \\| \\| --- \\| --- \\| |");
  });

  test("a cell outside any table and the page's own private-use characters leave no marks behind", () => {
    expect(htmlToMarkdown("<p>before</p><td>stray</td><p>icon \uE001 after</p>").markdown).toBe("before\n\nstray\n\nicon after");
  });
});
