/** @module Tests of caption parsing: classic and srv3 formats, entities, truncated and empty bodies. */
import { describe, expect, test } from "bun:test";
import { captionFormat, parseTimedText } from "../../../src/adapters/youtube/timedtext.ts";
import { SRV3, truncatedTranscript } from "../../support/caption-bodies.ts";
import { fixture } from "../../support/fixtures.ts";

describe("parseTimedText()", () => {
  test("reads the classic transcript.xml into 3 cues in seconds, skipping the empty one", () => {
    const cues = parseTimedText(fixture("transcript.xml"))!;
    expect(cues.map((c) => [c.start, c.duration])).toEqual([[0, 1.54], [1.54, 4.16], [5.7, 3.239]]);
  });

  test("decodes entity-escaped markup and drops the tags", () => {
    expect(parseTimedText(fixture("transcript.xml"))![1]!.text).toBe("this is not the original transcript");
  });

  test("reads srv3 (milliseconds) into seconds, joining word segments and decoding entities", () => {
    const cues = parseTimedText(SRV3)!;
    expect(cues).toEqual([
      { start: 0, duration: 1.54, text: "Hey, this is srv3" },
      { start: 1.54, duration: 4.16, text: 'café & "tea"' },
      { start: 5.7, duration: 3.239, text: "last line" },
    ]);
  });

  test("a truncated body is not a caption document (no partial transcript)", () => {
    expect(parseTimedText(truncatedTranscript())).toBeUndefined();
    expect(parseTimedText(SRV3.slice(0, 200))).toBeUndefined();
  });

  test("empty and HTML bodies are not caption documents; an empty document has no cues", () => {
    expect(parseTimedText("")).toBeUndefined();
    expect(parseTimedText("<html><body>Sorry</body></html>")).toBeUndefined();
    expect(parseTimedText('<?xml version="1.0"?><transcript></transcript>')).toEqual([]);
  });

  test("captionFormat() tells the units apart", () => {
    expect(captionFormat(fixture("transcript.xml"))).toBe("classic");
    expect(captionFormat(SRV3)).toBe("srv3");
    expect(captionFormat("")).toBeUndefined();
  });
});
