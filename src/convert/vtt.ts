/**
 * .vtt (WebVTT, as Teams, Zoom and YouTube export a call) -> a transcript in
 * the shape the chunker detects: each turn a `**Speaker** MM:SS` line (H:MM:SS
 * past an hour) followed by what was said. Speakers come from `<v Name>` tags
 * or `Name:` prefixes; a cue without either continues the previous speaker,
 * and consecutive cues of one speaker (one utterance cut into segments) are
 * joined back into one turn.
 */
import { basename } from "node:path";
import { TRANSCRIPT_WINDOW_SECONDS } from "../text/markdown-lines.ts";
import { AppError } from "../errors.ts";
import { decodeText } from "./decode-text.ts";
import type { Converted } from "./types.ts";
import { hasSignature, parseVtt, type Cue } from "./vtt-cues.ts";

interface Segment {
  start: number;
  speaker?: string;
  text: string;
}

/**
 * `Name:` at the start of a line: one to four words, each capitalised (or a
 * number, as in "Speaker 1"), lower-case particles of up to three letters
 * allowed between them ("Ludwig van Beethoven"). Sentences such as "So the
 * answer is: yes" fail on "answer".
 */
const PREFIX = /^((?:[\p{Lu}\p{Lt}\p{Lo}][\p{L}\p{M}\p{N}'’.-]*|\d+)(?:[ \t]+(?:[\p{Lu}\p{Lt}\p{Lo}\d][\p{L}\p{M}\p{N}'’.-]*|\p{Ll}{1,3})){0,3}):[ \t]+(?=\S)/u;
/** The chunker's speaker group allows 1-80 characters and no asterisk. */
const SPEAKER_MAX = 80;

function speakerLabel(name: string | undefined): string | undefined {
  const clean = [...(name ?? "").replace(/\*/g, "").replace(/\s+/g, " ").trim()].slice(0, SPEAKER_MAX).join("").trim();
  return clean || undefined;
}

function clock(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(seconds % 60)}` : `${two(m)}:${two(seconds % 60)}`;
}

/**
 * Names used as a `Name:` prefix at least twice, or also given by a voice
 * tag. A single "Note: ..." in someone's speech stays text; a real speaker
 * of a call almost always speaks more than once.
 */
function prefixSpeakers(cues: Iterable<Cue>): Set<string> {
  const counts = new Map<string, number>();
  const voices = new Set<string>();
  for (const cue of cues) {
    for (const line of cue.lines) {
      if (line.voice) voices.add(line.voice);
      const name = line.voice ? undefined : PREFIX.exec(line.text)?.[1];
      if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return new Set([...counts].filter(([name, n]) => n >= 2 || voices.has(name)).map(([name]) => name));
}

/**
 * Lines that repeat the end of the previous cue: YouTube's rolling captions
 * show each line twice (once new, once as context above the next), and
 * joining cues would say everything twice. YouTube repeats one line; looking
 * at no more than three keeps a cue of thousands of lines linear.
 *
 * Only a cue that takes over from the one before at once (within
 * ROLLING_GAP_MS of its end) repeats it this way: for a moment alone
 * (YouTube's 10 ms step between two cues, a "step"), or above new lines when
 * the cue before was itself rolling (a step, or a cue that carried a line
 * over). Anything else is said again: "No." at 00:08 and "No." at 00:10, a
 * "Thank you." 18 s after the first, or "No." then at once "No. I told you
 * already." in subtitles that do not roll, are kept (each was lost before;
 * found by a probe and a review). Times are compared in whole milliseconds.
 */
const MAX_REPEATED_LINES = 3;
const ROLLING_GAP_MS = 50;
const ROLLING_STEP_MS = 100;

interface Shown {
  segments: Segment[];
  cue: Cue;
  /** A step, or a cue whose first lines repeated the one before: the captions roll. */
  rolling: boolean;
}

const ms = (seconds: number) => Math.round(seconds * 1000);

/** How many of the cue's first lines repeat the cue before, and whether the cue rolls. */
function repeatedLead(previous: Shown | null, cue: Cue, current: Segment[]): { drop: number; rolling: boolean } {
  if (!previous || ms(cue.from) - ms(previous.cue.to) > ROLLING_GAP_MS) return { drop: 0, rolling: false };
  for (let k = Math.min(previous.segments.length, current.length, MAX_REPEATED_LINES); k > 0; k--) {
    const tail = previous.segments.slice(-k);
    if (!tail.every((s, i) => s.text === current[i]!.text && s.speaker === current[i]!.speaker)) continue;
    if (k === current.length) return ms(cue.to) - ms(cue.from) <= ROLLING_STEP_MS ? { drop: k, rolling: true } : { drop: 0, rolling: false };
    return previous.rolling ? { drop: k, rolling: true } : { drop: 0, rolling: false };
  }
  return { drop: 0, rolling: false };
}

function* segmentsOf(cues: Iterable<Cue>, named: Set<string>): Generator<Segment> {
  let speaker: string | undefined;
  let previous: Shown | null = null;
  for (const cue of cues) {
    const current: Segment[] = cue.lines.map((line) => {
      const prefix = line.voice ? undefined : PREFIX.exec(line.text);
      if (prefix && named.has(prefix[1]!)) {
        speaker = prefix[1];
        return { start: cue.start, speaker, text: line.text.slice(prefix[0].length) };
      }
      speaker = line.voice ?? speaker;
      return { start: cue.start, speaker, text: line.text };
    });
    const { drop, rolling } = repeatedLead(previous, cue, current);
    yield* current.slice(drop);
    previous = { segments: current, cue, rolling };
  }
}

/**
 * Joins one speaker's consecutive segments into turns. A turn does not run
 * past the chunker's 120-second window it started in: a long monologue goes
 * on as a new line with the same speaker, so each window holds what was said
 * in it rather than a few minutes that belong to the next ones. `cues` is
 * called twice (speakers first, then turns) rather than holding every cue.
 */
export function transcriptMarkdown(cues: () => Iterable<Cue>): string {
  const out: string[] = [];
  let turn: { start: number; speaker?: string; texts: string[] } | undefined;
  const flush = () => {
    if (!turn) return;
    const label = speakerLabel(turn.speaker);
    out.push(`${label ? `**${label}** ` : ""}${clock(turn.start)}\n${turn.texts.join(" ")}`);
  };
  const window = (seconds: number) => Math.floor(seconds / TRANSCRIPT_WINDOW_SECONDS);
  const named = prefixSpeakers(cues());
  for (const segment of segmentsOf(cues(), named)) {
    if (turn && turn.speaker === segment.speaker && window(turn.start) === window(segment.start)) {
      turn.texts.push(segment.text);
      continue;
    }
    flush();
    turn = { start: segment.start, speaker: segment.speaker, texts: [segment.text] };
  }
  flush();
  return out.join("\n\n");
}

export function convertVtt(bytes: Uint8Array, path: string): Converted {
  const name = basename(path);
  const { text, warnings = [] } = decodeText(bytes, name);
  if (!text.trim()) return { markdown: "", warnings: warnings.length ? warnings : undefined };
  // Line ends as LF once, so the parser can walk the text without splitting it.
  const body = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!hasSignature(body)) {
    throw new AppError(
      "CONVERSION_FAILED",
      `${name}: not a WebVTT file (its first line is not "WEBVTT")`,
      "Export the transcript again as WebVTT, or give the file the extension of what it really holds (.txt for plain text).",
    );
  }
  const skipped = { badTimings: 0 };
  // Each pass counts the skipped cues afresh; the last count stands.
  const markdown = transcriptMarkdown(() => {
    skipped.badTimings = 0;
    return parseVtt(body, skipped);
  });
  const { badTimings } = skipped;
  if (badTimings > 0) {
    warnings.push(`${name}: ${badTimings} ${badTimings === 1 ? "cue was" : "cues were"} skipped: unreadable timing line (expected HH:MM:SS.mmm --> HH:MM:SS.mmm).`);
  }
  return { markdown, warnings: warnings.length ? warnings : undefined };
}
