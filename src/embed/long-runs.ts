/**
 * Long runs of visible ASCII without a space (base64 and hex blobs, data:
 * URIs, minified code, rules of `=`) as the model sees them: the first
 * characters of each run and a mark, never the whole run. Such a run holds no
 * words for a vector, and tokenized whole it cost the most of any input: a
 * 1 MB base64 line became 9,509 chunks of about 110 characters, each counted
 * dozens of times while packing (383 s with the test tokenizer) and then
 * embedded. The chunk keeps the run's text exactly, so read_file, keyword
 * search and find_mentions see all of it; the chunker sizes it by characters
 * (a few thousand to a chunk) instead of by tokens. Letters of other scripts
 * are not ASCII, so text written without spaces (Chinese, Thai) is never a run.
 */

/** A run this long is no word: URLs and identifiers stay under it, blobs and minified lines do not. */
export const LONG_RUN_CHARS = 256;
/** The head of a run the model still sees, so `data:image/png;base64,` or a hash's start still says what it is. */
export const LONG_RUN_HEAD = 32;
/** What a run costs the chunk it is in, in tokens per this many characters: about 3,000 characters of run to a 200-token chunk. */
export const LONG_RUN_CHARS_PER_TOKEN = 16;

const LONG_RUN = new RegExp(`[!-~]{${LONG_RUN_CHARS},}`, "g");
const LONG_RUN_FROM = new RegExp(`[!-~]{${LONG_RUN_CHARS}}`, "y");
const MARK = " …";

/** Each long run of text cut to its head and a mark, and how many characters the runs held; text without a run is returned as is. */
function cutLongRuns(text: string): { read: string; runChars: number[] } {
  const runChars: number[] = [];
  if (text.length < LONG_RUN_CHARS) return { read: text, runChars };
  const read = text.replace(LONG_RUN, (run) => {
    runChars.push(run.length);
    return run.slice(0, LONG_RUN_HEAD) + MARK;
  });
  return { read, runChars };
}

/** The text the model reads for text: each long run cut to its head and a mark. Idempotent. */
export function modelText(text: string): string {
  return cutLongRuns(text).read;
}

/** True when text holds a long run from `at` on: a cut there is measured by the run's length, not tokenized. */
export function longRunAt(text: string, at: number): boolean {
  LONG_RUN_FROM.lastIndex = at;
  return LONG_RUN_FROM.test(text);
}

/** The chunker's measure of text: the model's count of what it reads, plus the long runs' share by their length. */
export function countWithLongRuns(count: (text: string) => number): (text: string) => number {
  return (text) => {
    const { read, runChars } = cutLongRuns(text);
    return runChars.reduce((tokens, chars) => tokens + Math.ceil(chars / LONG_RUN_CHARS_PER_TOKEN), count(read));
  };
}
