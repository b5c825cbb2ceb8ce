/** Inline code in HTML as Markdown code spans (src/convert/html.ts). */
import { describe, expect, test } from "bun:test";
import { htmlToMarkdown } from "../../src/convert/html.ts";

const markdown = (body: string) => htmlToMarkdown(`<html><body><p>${body}</p></body></html>`).markdown;

describe("inline code", () => {
  test("with markup inside (the Debian New Maintainers' Guide's file names) is its text in one span, as a reader sees it", () => {
    // first.en.html of the Guide writes a placeholder file name so; it came out as ``_`package`___`version`_.orig.tar.gz``.
    expect(markdown("Rename it to <code><em><code>package</code></em>_<em>version</em>.orig.tar.gz</code> first.")).toBe("Rename it to `package_version.orig.tar.gz` first.");
    expect(markdown("<code><em>пакет</em>_<em>версия</em>.orig.tar.gz</code>")).toBe("`пакет_версия.orig.tar.gz`");
  });

  test("a backtick inside takes a longer fence, and plain code stays as turndown writes it", () => {
    expect(markdown("<code><b>a`b</b></code>")).toBe("``a`b``");
    expect(markdown("<code><b>`x</b></code>")).toBe("`` `x ``");
    expect(markdown("run <code>dpkg -i x_1.deb</code>")).toBe("run `dpkg -i x_1.deb`");
    // A line break inside is a space between words, not nothing (a reviewer's find: line1line2).
    expect(markdown("x <code>line1<br>line2</code> y")).toBe("x `line1 line2` y");
  });
});
