/** @module Tests of falling back to the second transcript strategy, and of which error is reported. */
import { describe, expect, test } from "bun:test";
import { withSecondStrategy } from "../../../src/adapters/youtube/second-strategy.ts";
import { unreadable } from "../../../src/adapters/youtube/unreadable.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { TranscriptSource } from "../../../src/domain/ports.ts";
import type { Transcript } from "../../../src/domain/transcript.ts";

const transcript: Transcript = {
  videoId: "GJLlxj_dtq8",
  language: "en",
  isGenerated: false,
  isTranslated: false,
  cues: [{ start: 0, duration: 1, text: "hi" }],
};
const query = { languages: ["en"] as const, translate: true };

function stub(outcome: Transcript | AppError) {
  const source = {
    calls: 0,
    async fetch() {
      source.calls++;
      if (outcome instanceof AppError) throw outcome;
      return outcome;
    },
  } satisfies TranscriptSource & { calls: number };
  return source;
}

describe("withSecondStrategy()", () => {
  test("asks the second source only when the primary could not parse YouTube's answer", async () => {
    const second = stub(transcript);
    expect(await withSecondStrategy(stub(unreadable("a player response", "x")), second).fetch("GJLlxj_dtq8", query))
      .toBe(transcript);
    expect(second.calls).toBe(1);
  });

  test.each(
    ["video_unavailable", "upstream_blocked", "transcript_unavailable", "upstream_timeout", "upstream_error"] as const,
  )(
    "leaves a primary %s as it is",
    async (code) => {
      const second = stub(transcript);
      await expect(withSecondStrategy(stub(new AppError(code, "no")), second).fetch("GJLlxj_dtq8", query)).rejects
        .toMatchObject({ code });
      expect(second.calls).toBe(0);
    },
  );

  test("reports the primary's error when the second fails too, but a timeout or block of the second", async () => {
    const primaryError = unreadable("a player response", "x");
    await expect(
      withSecondStrategy(stub(primaryError), stub(new AppError("upstream_error", "second"))).fetch("v", query),
    ).rejects.toBe(primaryError);
    await expect(withSecondStrategy(stub(primaryError), stub(new AppError("upstream_blocked", "b"))).fetch("v", query))
      .rejects.toMatchObject({ code: "upstream_blocked" });
  });
});
