import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { timestampSeconds } from "../../src/text/markdown-lines.ts";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { converterFor } from "../../src/convert/registry.ts";
import { convertVtt } from "../../src/convert/vtt.ts";
import { AppError } from "../../src/errors.ts";
import { fakeCount } from "../chunk/fake-counter.ts";
import { FIXTURES } from "../helpers.ts";
import { expectConversion, type Expectation } from "./expectations.ts";

const dir = join(FIXTURES, "vtt");
const fixture = (name: string) => convertVtt(new Uint8Array(readFileSync(join(dir, name))), name);
const vtt = (text: string) => convertVtt(new TextEncoder().encode(text), "call.vtt").markdown;
const speakerLines = (markdown: string) => markdown.split("\n").filter((l) => timestampSeconds(l) !== null);

function failure(bytes: Uint8Array, name: string): AppError {
  try {
    convertVtt(bytes, name);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${name} converted`);
}

describe("WebVTT files from the corpus", () => {
  const entries: [string, Expectation][] = Object.entries(JSON.parse(readFileSync(join(dir, "expectations.json"), "utf8")));
  const readable = entries.filter(([file]) => !file.includes("garbage"));

  test.each(readable)("%s converts with the strings the corpus expects", async (file, expected) => {
    await expectConversion(dir, file, expected);
  });

  test("the registry reads .vtt with this converter", async () => {
    expect(await converterFor("Weekly sync.VTT")).toBe(convertVtt);
  });

  test("voice tags give one turn per speaker, consecutive cues joined and entities decoded", () => {
    expect(fixture("example-short.vtt").markdown).toBe(
      [
        "**Sarah** 00:00",
        "In today's episode, you'll learn whether or not you should have a podcast trailer. And if so, what should you include in one? Welcome to Podcasting Q&A, where you learn the best tips and strategies to launch, grow and monetize your podcast. This week's question comes from Gillian.",
        "",
        "**Gillian** 00:19",
        "Hi Buzzsprout, Gillian here from breaking through careers podcast. My question is, do we need a podcast trailer?",
      ].join("\n"),
    );
  });

  test("Name: prefixes give the same turns as voice tags for the same episode", () => {
    const tagged = speakerLines(fixture("buzzsprout-10-things-full.vtt").markdown);
    const prefixed = speakerLines(fixture("buzzsprout-10-things-full-2021-speaker-prefix.vtt").markdown);
    expect(prefixed).toEqual(tagged);
    expect(new Set(tagged.map((l) => l.replace(/ [\d:]+$/, "")))).toEqual(new Set(["**Travis**", "**Sarah**", "**Gilon**"]));
  });

  test("a long multilingual cue id is dropped and the cue's text kept", () => {
    expect(fixture("cuetext__languages__multiple_languages.vtt").markdown).toBe("00:11\nPayload");
  });

  test("a cue without a speaker continues the speaker before it", () => {
    const markdown = fixture("buzzsprout-10-things-full.vtt").markdown;
    expect(markdown).toContain("**Travis** 00:00\nWhen you first get started in podcasting, it's almost guaranteed that you're going to make");
    expect(markdown).not.toContain("<v");
    expect(markdown).not.toContain("Gilon:");
  });

  test("a file whose first line is not WEBVTT fails in one line naming the file, with a hint", () => {
    const error = failure(new Uint8Array(readFileSync(join(dir, "file-layout__garbage-signature.vtt"))), "file-layout__garbage-signature.vtt");
    expect(error.code).toBe("CONVERSION_FAILED");
    expect(error.message).toBe('file-layout__garbage-signature.vtt: not a WebVTT file (its first line is not "WEBVTT")');
    expect(error.hint).toContain("WebVTT");
  });

  test("an empty file and one holding only a BOM convert to no text", () => {
    expect(convertVtt(new Uint8Array(0), "empty.vtt")).toEqual({ markdown: "", warnings: undefined });
    expect(fixture("file-layout__blank-file-with-bom.vtt").markdown).toBe("");
  });

  test("binary bytes named .vtt fail with the file name", () => {
    const bytes = Uint8Array.from({ length: 600 }, (_, i) => (i * 37) % 256);
    const error = failure(bytes, "recording.vtt");
    expect(error.message).toStartWith("recording.vtt: ");
    expect(error.message).not.toContain("\n");
  });
});

describe("WebVTT parsing", () => {
  test("cue ids, NOTE, STYLE and REGION blocks, header metadata and cue settings are dropped", () => {
    const markdown = vtt(
      [
        "WEBVTT - weekly sync",
        "Kind: captions",
        "",
        "STYLE",
        "::cue { color: lime }",
        "",
        "REGION",
        "id:left width:40%",
        "",
        "NOTE recorded by the bot",
        "",
        "intro-1",
        "00:00:01.000 --> 00:00:03.000 align:start position:10% region:left",
        "<v Ann>Hello there.",
        "",
        "42",
        "00:00:03.500 --> 00:00:05.000 line:0",
        "<v Ann>How are you?",
      ].join("\n"),
    );
    expect(markdown).toBe("**Ann** 00:01\nHello there. How are you?");
  });

  test("inline tags are dropped and their text kept: classes, italics, inline timestamps, language spans", () => {
    const markdown = vtt("WEBVTT\n\n00:00.000 --> 00:04.000\n<v.loud Bob>We <00:00.500><c.yellow>ship</c> <i>on</i> <b>Friday</b> <lang en-GB>&lt;sure&gt;</lang>&nbsp;&#x263A;</v>\n");
    expect(markdown).toBe("**Bob** 00:00\nWe ship on Friday <sure> \u263a");
  });

  test("a speaker change starts a turn; the same speaker again after someone else is a new turn", () => {
    const cue = (s: number, text: string) => `00:${String(s).padStart(2, "0")}.000 --> 00:${String(s + 1).padStart(2, "0")}.000\n${text}\n`;
    const markdown = vtt(["WEBVTT\n", cue(1, "<v Ann>One"), cue(2, "<v Ann>two."), cue(3, "<v Bo>Three."), cue(4, "<v Ann>Four.")].join("\n"));
    expect(markdown).toBe("**Ann** 00:01\nOne two.\n\n**Bo** 00:03\nThree.\n\n**Ann** 00:04\nFour.");
  });

  test("a monologue goes on as a new line with the same speaker where the chunker's 120-second window ends", () => {
    const markdown = vtt("WEBVTT\n\n01:50.000 --> 01:59.000\n<v Ann>Before the boundary\n\n02:00.000 --> 02:05.000\n<v Ann>after it.\n");
    expect(markdown).toBe("**Ann** 01:50\nBefore the boundary\n\n**Ann** 02:00\nafter it.");
  });

  test("CRLF and bare CR line ends read the same as LF", () => {
    const lf = "WEBVTT\n\n1\n00:01.000 --> 00:02.000\n<v Ann>One\nline.\n\n00:03.000 --> 00:04.000\n<v Bo>Two.\n";
    expect(vtt(lf.replace(/\n/g, "\r\n"))).toBe(vtt(lf));
    expect(vtt(lf.replace(/\n/g, "\r"))).toBe(vtt(lf));
    expect(vtt(lf)).toBe("**Ann** 00:01\nOne line.\n\n**Bo** 00:03\nTwo.");
  });

  test("turns past an hour are stamped H:MM:SS", () => {
    expect(vtt("WEBVTT\n\n01:02:03.900 --> 01:02:05.000\n<v Ann>Late.\n")).toBe("**Ann** 1:02:03\nLate.");
  });

  test("a Name: prefix used once stays text; used twice it names the speaker", () => {
    const once = vtt("WEBVTT\n\n00:01.000 --> 00:02.000\nNote: the room was cold.\n");
    expect(once).toBe("00:01\nNote: the room was cold.");
    const twice = vtt("WEBVTT\n\n00:01.000 --> 00:02.000\nDr Jane Smith: Hi.\n\n00:03.000 --> 00:04.000\nSo the answer is: yes\n\n00:05.000 --> 00:06.000\nSpeaker 2: Hello.\n\n00:07.000 --> 00:08.000\nDr Jane Smith: Bye.\n\n00:09.000 --> 00:10.000\nSpeaker 2: Bye.\n");
    expect(twice).toBe(
      "**Dr Jane Smith** 00:01\nHi. So the answer is: yes\n\n**Speaker 2** 00:05\nHello.\n\n**Dr Jane Smith** 00:07\nBye.\n\n**Speaker 2** 00:09\nBye.",
    );
  });

  test("YouTube's rolling captions, which repeat each line in the next cue, are not doubled", () => {
    const markdown = vtt(
      [
        "WEBVTT\nKind: captions\nLanguage: en\n",
        "00:00:00.000 --> 00:00:02.000 align:start position:0%\nwelcome<00:00:00.400><c> back</c>\n",
        "00:00:02.000 --> 00:00:02.010 align:start position:0%\nwelcome back\n",
        "00:00:02.010 --> 00:00:04.000 align:start position:0%\nwelcome back\ntoday<00:00:02.500><c> we</c><00:00:03.000><c> test</c>\n",
      ].join("\n"),
    );
    expect(markdown).toBe("00:00\nwelcome back today we test");
  });

  test("a cue that says again what the one before said is kept: apart in time, or following at once but said, not a caption's step (found by a probe: they were dropped)", () => {
    const markdown = vtt(
      [
        "WEBVTT\n",
        "00:08.000 --> 00:09.000\n<v Bob>No.\n",
        "00:10.000 --> 00:11.000\n<v Bob>No.\n",
        "00:11.000 --> 00:12.500\n<v Bob>No.\n",
        "00:20.000 --> 00:21.000\n<v Alice>Thank you.\n",
        "00:40.000 --> 00:41.000\n<v Alice>Thank you.\n",
      ].join("\n"),
    );
    expect(markdown).toBe("**Bob** 00:08\nNo. No. No.\n\n**Alice** 00:20\nThank you. Thank you.");
  });

  test("subtitles that do not roll keep a line said again at once above a new one; a cue of exactly 100 ms is a step wherever it falls (found by a review)", () => {
    expect(vtt("WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>No.\n\n00:02.000 --> 00:04.000\n<v Ann>No.\n<v Ann>I told you already.\n")).toBe("**Ann** 00:01\nNo. No. I told you already.");
    for (const [from, to] of [["02.350", "02.450"], ["04.500", "04.600"]]) {
      const steps = vtt(`WEBVTT\n\n00:00.000 --> 00:${from}\nwelcome back\n\n00:${from} --> 00:${to}\nwelcome back\n\n00:${to} --> 00:09.000\nwelcome back\ntoday we test\n`);
      expect(steps).toBe("00:00\nwelcome back today we test");
    }
  });

  test("vtt.js's cue-spacing fixture: three cues of the same text at 0, 2 and 6 s are three", () => {
    const markdown = vtt("WEBVTT\n\n00:00.000 --> 00:01.000\nText\n\n00:02.000 --> 00:03.000\nText\n\n00:06.000 --> 00:07.000\nText\n");
    expect(markdown).toBe("00:00\nText Text Text");
  });

  test("asterisks leave a speaker name, which is cut to the chunker's 80 characters", () => {
    const long = "A".repeat(100);
    expect(vtt(`WEBVTT\n\n00:01.000 --> 00:02.000\n<v **Ann**>Hi.\n\n00:03.000 --> 00:04.000\n<v ${long}>Yo.\n`)).toBe(`**Ann** 00:01\nHi.\n\n**${"A".repeat(80)}** 00:03\nYo.`);
  });

  test("a cue with an unreadable timing line is skipped with a warning and the rest is kept", () => {
    const converted = convertVtt(new TextEncoder().encode("WEBVTT\n\n00:01.000 --> soon\n<v Ann>Lost.\n\n00:03.000 --> 00:04.000\n<v Ann>Kept.\n"), "call.vtt");
    expect(converted.markdown).toBe("**Ann** 00:03\nKept.");
    expect(converted.warnings).toEqual(["call.vtt: 1 cue was skipped: unreadable timing line (expected HH:MM:SS.mmm --> HH:MM:SS.mmm)."]);
  });

  test("a timing line without a blank line before it starts a new cue, as the WebVTT spec reads it", () => {
    expect(vtt("WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>One.\n00:02.000 --> 00:03.000\n<v Bo>Two.\n")).toBe("**Ann** 00:01\nOne.\n\n**Bo** 00:02\nTwo.");
  });
});

describe("a converted WebVTT file through the chunker", () => {
  const markdown = fixture("buzzsprout-10-things-full.vtt").markdown;
  const { category, chunks } = chunkDocument(markdown, { title: "10 things", seedTitle: true, budget: 128, count: fakeCount });

  test("is chunked as a transcript", () => {
    expect(category).toBe("transcript");
  });

  test("every chunk is labelled with its 120-second window and holds only turns that start in it", () => {
    const windows = new Set<string>();
    for (const chunk of chunks) {
      const label = /^\[(\d\d):(\d\d)–(\d\d):(\d\d)\] 10 things\n/.exec(chunk.text);
      expect({ chunk: chunk.chunkIndex, labelled: Boolean(label) }).toEqual({ chunk: chunk.chunkIndex, labelled: true });
      const from = Number(label![1]) * 60 + Number(label![2]);
      expect(Number(label![3]) * 60 + Number(label![4]) - from).toBe(120);
      windows.add(label![0]);
      for (const line of chunk.text.split("\n")) {
        const at = timestampSeconds(line);
        if (at !== null) expect(at >= from && at < from + 120).toBe(true);
      }
    }
    // The 12.5-minute episode spans windows 00:00 to 12:00.
    expect(windows.size).toBe(7);
  });
});
