/** @module Tests of transcript pages: the lines, the size bound, and pages that chain without a gap or an overlap. */
import { describe, expect, test } from "bun:test";
import { PAGE_MAX_CHARS, type Segment, transcriptPage, UNTRUSTED } from "../../../src/app/mcp/transcript-page.ts";
import type { Cue } from "../../../src/domain/transcript.ts";
import { describeReading } from "../../../src/domain/transcript-reading.ts";
import { sampleTranscript } from "../../support/fake/ports.ts";
import { generateCues } from "../../support/long-transcript.ts";

const URL = "https://youtu.be/GJLlxj_dtq8";
const reading = (cues: Cue[], durationSeconds = 316) =>
  describeReading({ ...sampleTranscript(), cues, durationSeconds }, undefined);
const range = (fromSeconds = 0, toSeconds?: number) => ({
  url: URL,
  videoId: "GJLlxj_dtq8",
  fromSeconds,
  ...(toSeconds === undefined ? {} : { toSeconds }),
});

type Page = { segments: Segment[]; next_from_seconds?: number; from_seconds: number };
const pageOf = (result: { structuredContent?: Record<string, unknown> }) => result.structuredContent as Page;
const linesOf = (result: { content: { text: string }[] }) => result.content[0]!.text.split("\n");

/** Reads every page from `from`, as an agent would, following next_from_seconds. */
function allPages(cues: Cue[], from = 0, to?: number, maxChars = PAGE_MAX_CHARS) {
  const pages = [];
  let next: number | undefined = from;
  while (next !== undefined) {
    const result = transcriptPage(reading(cues, 3 * 3600), range(next, to), maxChars);
    pages.push(result);
    next = pageOf(result).next_from_seconds;
    if (pages.length > 1_000) throw new Error("the pages do not end");
  }
  return pages;
}

describe("transcriptPage()", () => {
  test("a short transcript is one page: [m:ss] lines as text, timed segments as structured content, no next", () => {
    const result = transcriptPage(reading(sampleTranscript().cues), range());
    expect(linesOf(result)).toEqual([
      "[0:00] Hey, this is just a test",
      "[0:01] this is not the original transcript",
      "[0:05] just something shorter, I made up for testing",
    ]);
    expect(pageOf(result).segments).toEqual([
      { start: 0, duration: 1.54, text: "Hey, this is just a test" },
      { start: 1.54, duration: 4.16, text: "this is not the original transcript" },
      { start: 5.7, duration: 3.239, text: "just something shorter, I made up for testing" },
    ]);
    expect(result.structuredContent).toMatchObject({
      url: URL,
      language: "en",
      kind: "manual",
      language_source: "original",
      video_duration: "5 minutes",
      duration_seconds: 316,
      from_seconds: 0,
    });
    expect(pageOf(result).next_from_seconds).toBeUndefined();
    expect(result.content[1]!.text).toContain("This is the end of the range.");
    // Every page says whose text it carries, in its note and its structured content.
    expect(result.content[1]!.text).toEndWith(UNTRUSTED);
    expect(result.structuredContent?.text_trust).toBe("untrusted");
  });

  test("a 3-hour transcript comes in pages under 20,000 characters that chain to its end without gap or overlap", () => {
    const cues = generateCues(3 * 3600);
    const pages = allPages(cues);
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(JSON.stringify(page).length).toBeLessThanOrEqual(PAGE_MAX_CHARS);
    // Each page but the last is nearly full: pages are not cut short.
    for (const page of pages.slice(0, -1)) expect(JSON.stringify(page).length).toBeGreaterThan(PAGE_MAX_CHARS * 0.95);
    const read = pages.flatMap((page) => pageOf(page).segments);
    expect(read).toEqual(cues);
    for (const page of pages.slice(0, -1)) {
      const { segments, next_from_seconds } = pageOf(page);
      expect(next_from_seconds).toBeGreaterThan(segments.at(-1)!.start);
      expect(page.content[1]!.text).toContain(`from_seconds ${next_from_seconds}`);
    }
    expect(pageOf(pages.at(-1)!).segments.at(-1)!.start).toBe(cues.at(-1)!.start);
  });

  test("a range holds the lines that start in it; its pages chain to its end, not the video's", () => {
    const cues = generateCues(3600);
    const pages = allPages(cues, 600, 1800);
    const read = pages.flatMap((page) => pageOf(page).segments);
    expect(read).toEqual(cues.filter((cue) => cue.start >= 600 && cue.start < 1800));
    expect(pageOf(pages.at(-1)!).next_from_seconds).toBeUndefined();
    expect(pages[0]!.structuredContent).toMatchObject({ from_seconds: 600, to_seconds: 1800 });
    // A start between two lines: the line that began before it belongs to the page before.
    expect(pageOf(transcriptPage(reading(cues), range(601))).segments[0]!.start).toBe(604);
  });

  test("lines that start at the same time stay on one page, so next_from_seconds never splits them", () => {
    const cues: Cue[] = [];
    for (let start = 0; start < 200; start += 10) {
      for (let i = 0; i < 3; i++) cues.push({ start, duration: 10, text: `line ${i} of the moment at ${start} s` });
    }
    const pages = allPages(cues, 0, undefined, 2_000);
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) {
      expect(JSON.stringify(page).length).toBeLessThanOrEqual(2_000);
      expect(pageOf(page).segments.length % 3).toBe(0);
    }
    expect(pages.flatMap((page) => pageOf(page).segments)).toEqual(cues);
  });

  test("one moment longer than a page on its own is cut to fit, and the next page starts after it", () => {
    const cues: Cue[] = [
      { start: 0, duration: 5, text: "word ".repeat(10_000) },
      { start: 5, duration: 5, text: "the next line" },
    ];
    const first = transcriptPage(reading(cues), range());
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(PAGE_MAX_CHARS);
    expect(pageOf(first).segments[0]!.text).toEndWith("…");
    expect(pageOf(first).next_from_seconds).toBe(5);
    expect(pageOf(transcriptPage(reading(cues), range(5))).segments).toEqual([cues[1]!]);
  });

  test("times are kept to the millisecond, blank lines are left out, and text lines are one line each", () => {
    const cues: Cue[] = [
      { start: 600.0000000001, duration: 2.00049, text: "two\nlines  of a caption" },
      { start: 602, duration: 1, text: "   " },
      { start: 3725.5, duration: 1, text: "after an hour" },
    ];
    const result = transcriptPage(reading(cues, 4000), range());
    expect(pageOf(result).segments).toEqual([
      { start: 600, duration: 2, text: "two\nlines  of a caption" },
      { start: 3725.5, duration: 1, text: "after an hour" },
    ]);
    expect(linesOf(result)).toEqual(["[10:00] two lines of a caption", "[1:02:05] after an hour"]);
  });

  test("a range past the end is an empty page with nothing to follow", () => {
    const result = transcriptPage(reading(sampleTranscript().cues), range(400));
    expect(pageOf(result).segments).toEqual([]);
    expect(pageOf(result).next_from_seconds).toBeUndefined();
    expect(result.content[0]!.text).toBe("(No transcript lines start in this range.)");
  });

  test("a transcript cut at the cap says where the part read ends, in the structured content and the note", () => {
    const cues = sampleTranscript().cues;
    const cut = { cues: 40_000, characters: 900_000, keptUntilSeconds: 32_400.5 };
    const result = transcriptPage(describeReading({ ...sampleTranscript(), cues, cut }, undefined), range());
    expect(result.structuredContent!.transcript_cut_at_seconds).toBe(32_400.5);
    expect(result.content[1]!.text).toContain("The transcript is longer than the service reads: it stops at 9:00:00.");
    expect(transcriptPage(reading(cues), range()).structuredContent!.transcript_cut_at_seconds).toBeUndefined();
  });
});
