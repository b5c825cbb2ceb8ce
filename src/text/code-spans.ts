/** Code spans in Markdown: what a converter or an author set between backticks, which no other Markdown rule reads inside. */

/**
 * The code spans of one line as [start, end) pairs: a run of backticks up to
 * the next run of as many (CommonMark). Found in one pass over the runs, each
 * knowing where the next of its length is: a pattern that tried every run as
 * an opener and read on to the line's end would be quadratic on a long line.
 */
export function codeSpans(line: string): [number, number][] {
  const runs: { at: number; length: number }[] = [];
  for (let i = line.indexOf("`"); i >= 0; i = line.indexOf("`", i)) {
    let end = i;
    while (line[end] === "`") end++;
    runs.push({ at: i, length: end - i });
    i = end;
  }
  const next: number[] = new Array(runs.length);
  const nextOfLength = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    next[k] = nextOfLength.get(runs[k]!.length) ?? -1;
    nextOfLength.set(runs[k]!.length, k);
  }
  const spans: [number, number][] = [];
  for (let k = 0; k < runs.length; ) {
    const close = next[k]!;
    if (close < 0) {
      k++;
      continue;
    }
    spans.push([runs[k]!.at, runs[close]!.at + runs[close]!.length]);
    k = close + 1;
  }
  return spans;
}
