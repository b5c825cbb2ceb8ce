/**
 * WebVTT text -> cues: start time, voice and plain text. Follows the W3C
 * parsing rules where they matter for text: a line with "-->" starts a cue
 * even without a blank line before it (vtt.js's cue-spacing case), the line
 * before it is the cue id and is dropped, NOTE/STYLE/REGION blocks and the
 * header's metadata are skipped, cue settings after the end time are ignored.
 */

export interface Cue {
  /** Start time in whole seconds. */
  start: number;
  /** Start and end to the millisecond: whether a cue follows the one before at once (vtt.ts repeatedLead). */
  from: number;
  to: number;
  /** The text as lines, tags removed and entities decoded; each line carries the voice in force where it begins. */
  lines: { voice?: string; text: string }[];
}

const SIGNATURE = /^WEBVTT(?:[ \t].*)?$/;
const TIME = /^(?:(\d+):)?([0-5]\d):([0-5]\d)[.,](\d{1,3})$/;
const BLOCK_KEYWORD = /^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", lrm: "", rlm: "" };

/** True when the text opens with the WEBVTT signature line (a BOM already removed). */
export function hasSignature(text: string): boolean {
  return SIGNATURE.test(text.slice(0, text.search(/\r?\n|\r|$/)));
}

function seconds(stamp: string): number | null {
  const m = TIME.exec(stamp);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** A timestamp to the millisecond (`.5` is half a second). */
function exactSeconds(stamp: string): number | null {
  const whole = seconds(stamp);
  return whole === null ? null : whole + Number(`0.${TIME.exec(stamp)![4]}`);
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** `<v.loud Joe Smith>` -> "Joe Smith"; `<v>` (no annotation) -> undefined. */
function voiceOf(tag: string): string | undefined {
  const m = /^<v(?:\.[^\s>]*)?(?:[ \t]+([^>]*))?>$/i.exec(tag);
  const name = m?.[1]?.replace(/\s+/g, " ").trim();
  return name || undefined;
}

/**
 * One cue's raw text lines -> lines with their voice. A `<v Name>` tag
 * switches the voice for the rest of the cue (a closing </v> does not: vtt.js
 * reads `<v Joe>Hee!</v> Hee!` as Joe's); every other tag (<c>, <i>, <b>,
 * <u>, <lang>, <ruby>, inline timestamps) is dropped with its text kept.
 */
function cueLines(raw: string[]): Cue["lines"] {
  const lines: Cue["lines"] = [];
  let voice: string | undefined;
  for (const line of raw) {
    let current = { voice, text: "" };
    for (const part of line.split(/(<[^>]*>)/)) {
      if (!part.startsWith("<") || !part.endsWith(">")) {
        current.text += part;
      } else if (/^<v[\s.>]/i.test(part)) {
        voice = voiceOf(part) ?? voice;
        if (current.text.trim()) lines.push({ voice: current.voice, text: current.text });
        current = { voice, text: "" };
      }
    }
    lines.push(current);
  }
  return lines
    .map((l) => ({ voice: l.voice, text: decodeEntities(l.text).replace(/\s+/g, " ").trim() }))
    .filter((l) => l.text);
}

/** Lines of LF-only text one at a time: split at once, a 20 MB transcript holds a string object per line. */
function* linesOf(text: string): Generator<string> {
  for (let at = 0; at <= text.length; ) {
    const end = text.indexOf("\n", at);
    const stop = end < 0 ? text.length : end;
    yield text.slice(at, stop);
    at = stop + 1;
  }
}

/**
 * The cues of WebVTT text (line ends already LF) whose signature was checked, one at a time, so a
 * caller can make passes without holding every cue; never throws. Cues whose
 * timing line cannot be read are skipped and counted in `skipped.badTimings`.
 */
export function* parseVtt(text: string, skipped: { badTimings: number } = { badTimings: 0 }): Generator<Cue> {
  // "header" until the first blank line, "skip" inside NOTE/STYLE/REGION or a cue with bad timings.
  let state: "header" | "between" | "skip" | "cue" = "header";
  let raw: string[] = [];
  let start = 0;
  let span = { from: 0, to: 0 };
  let first = true;
  for (const line of linesOf(text)) {
    if (first) {
      first = false;
      continue;
    }
    if (line.trim() === "") {
      if (state === "cue" && raw.length) yield* cueOf(start, span, raw);
      raw = [];
      state = "between";
      continue;
    }
    // A timing line right under the header (no blank line) still starts a cue: lenient where the spec would drop it.
    if (line.includes("-->")) {
      if (state === "cue" && raw.length) yield* cueOf(start, span, raw);
      raw = [];
      const [from, rest = ""] = line.split("-->");
      const at = seconds(from!.trim());
      const end = rest.trim().split(/[ \t]+/)[0] ?? "";
      if (at === null || seconds(end) === null) {
        skipped.badTimings++;
        state = "skip";
      } else {
        start = at;
        span = { from: exactSeconds(from!.trim())!, to: exactSeconds(end)! };
        state = "cue";
      }
      continue;
    }
    if (state === "header") continue;
    if (state === "cue") raw.push(line);
    else if (state === "between" && BLOCK_KEYWORD.test(line)) state = "skip";
    // Otherwise a cue id (or a skipped block's line): dropped.
  }
  if (state === "cue" && raw.length) yield* cueOf(start, span, raw);
}

function* cueOf(start: number, span: { from: number; to: number }, raw: string[]): Generator<Cue> {
  const lines = cueLines(raw);
  if (lines.length) yield { start, ...span, lines };
}
