/**
 * patches/htmlparser2@10.1.0.patch keeps the parser's stack of open tags
 * top-last (push/pop) instead of top-first (unshift/shift), since each
 * unshift moved the whole stack: 200,000 nested tags took 7-12 s to parse,
 * 1 s after. These are the serialisations the unpatched parser gave, so the
 * patch changes speed only; test/convert/html-depth.test.ts has the depth.
 */
import { describe, expect, test } from "bun:test";
import { Parser } from "htmlparser2";
import { parseHTML } from "linkedom";

describe("linkedom over the patched htmlparser2 closes tags as the unpatched one did", () => {
  test.each([
    ["<p>a<p>b<div>c</div>", "<p>a</p><p>b</p><div>c</div>"],
    ["<ul><li>x<li>y</ul><p>z", "<ul><li>x</li><li>y</li></ul><p>z</p>"],
    ["<table><tr><td>1<td>2<tr><td>3</table>", "<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>"],
    ["<div><span>open</div>after", "<div><span>open</span></div>after"],
    ["<b>x</p>y</b>", "<b>x<p></p>y</b>"],
    ["<svg><circle/><text>t</text></svg><p>p", "<svg><circle /><text>t</text></svg><p>p</p>"],
    ["<select><option>a<option>b</select>", "<select><option>a</option><option>b</option></select>"],
    ["<dl><dt>t<dd>d<dt>u</dl>", "<dl><dt>t</dt><dd>d</dd><dt>u</dt></dl>"],
    ["<div><div>unclosed", "<div><div>unclosed</div></div>"],
  ])("%s", (html, expected) => {
    expect(parseHTML(`<html><body>${html}</body></html>`).document.body.innerHTML).toBe(expected);
  });

  test("the stack is walked from its top: a close tag shuts the nearest open element of its name, and the end shuts the rest innermost first", () => {
    const closed: string[] = [];
    const parser = new Parser({ onclosetag: (name) => closed.push(name) });
    parser.write("<div><section><div><span>text</div><p>left open");
    parser.end();
    expect(closed).toEqual(["span", "div", "p", "section", "div"]);
  });
});
