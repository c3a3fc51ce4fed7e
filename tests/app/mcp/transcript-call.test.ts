/** @module Tests of transcript-call.ts on the real transcript use case with in-memory ports. */
import { describe, expect, test } from "bun:test";
import type { Logger } from "../../../src/app/log/logger.ts";
import type { ProgressStep } from "../../../src/app/mcp/progress.ts";
import { callTranscriptTool, type TranscriptCallDeps } from "../../../src/app/mcp/transcript-call.ts";
import type { KeyIdentity, RateLimiter } from "../../../src/domain/ports.ts";
import { createTranscriptReader } from "../../../src/domain/transcript-reading.ts";
import { CountingLimiter, FakeTranscripts, openGate } from "../../support/fake/ports.ts";
import type { AnsweredRequest, MeteredRequest, UsageMeter } from "../../../src/domain/usage/meter.ts";

/** A meter under a quota of minutes that admits everything, noting what it was asked and charged. */
function minutesMeter() {
  const admitted: number[] = [];
  const answered: AnsweredRequest[] = [];
  const metered: MeteredRequest = {
    admit: async (minutes) => void admitted.push(minutes),
    spend: () => {},
    working: () => {},
    answered: (outcome) => void answered.push(outcome),
    refused: () => {},
  };
  const usage: UsageMeter = { begin: async () => metered, meters: () => true, refuse: () => {}, close: async () => {} };
  return { usage, admitted, answered };
}

const URL = "https://youtu.be/GJLlxj_dtq8";
const KEY: KeyIdentity = { id: "key_0123456789ab", name: "team agents" };

function setUp(options: { transcripts?: FakeTranscripts; limiter?: RateLimiter } = {}) {
  const logs: { event: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    info: (event, fields) => logs.push({ event, fields }),
    warn: (event, fields) => logs.push({ event, fields }),
    error: (event, fields) => logs.push({ event, fields }),
  };
  const transcripts = options.transcripts ?? new FakeTranscripts();
  const deps: TranscriptCallDeps = {
    transcripts: createTranscriptReader({ transcripts, gate: openGate, requestTimeoutMs: 5_000 }),
    rateLimiter: options.limiter ?? new CountingLimiter(100),
    logger,
    identity: KEY,
    maxArgumentBytes: 16_384,
    requestTimeoutMs: 5_000,
    progressTimeoutMs: 9_000,
  };
  return { deps, logs, transcripts };
}

describe("callTranscriptTool", () => {
  test("returns the page, counts the call against the caller's key, and logs it", async () => {
    const limiter = new CountingLimiter(100);
    const { deps, logs } = setUp({ limiter });
    const result = await callTranscriptTool(deps, { url: URL, language: "en" });
    expect(result.isError).toBeUndefined();
    expect(result.content[0]!.text).toStartWith("[0:00] Hey, this is just a test\n");
    expect(result.structuredContent).toMatchObject({ language: "en", language_source: "requested", kind: "manual" });
    expect(limiter.counts.get(KEY.id)).toBe(1);
    expect(logs.find((l) => l.event === "mcp_call")!.fields).toMatchObject({
      tool: "get_transcript",
      key_id: KEY.id,
      video_id: "GJLlxj_dtq8",
      segments: 3,
    });
  });

  test("a page is charged its text when denser than speech: 30 seconds of 6,000 characters is 6 minutes", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.transcript = {
      ...transcripts.transcript,
      cues: Array.from({ length: 6 }, (_, i) => ({ start: i * 5, duration: 5, text: `${i}`.padEnd(1_000, " x") })),
    };
    const { deps } = setUp({ transcripts });
    const meter = minutesMeter();
    const result = await callTranscriptTool({ ...deps, usage: meter.usage }, { url: URL, language: "en" });
    expect(result.isError).toBeUndefined();
    const segments = result.structuredContent!.segments as unknown[];
    expect(segments).toHaveLength(6);
    expect(meter.admitted).toEqual([6]);
    expect(meter.answered).toEqual([{ cache: "miss", answer: { videoSeconds: 30, characters: 6_000 } }]);
  });

  test("a page of normal speech is charged its minutes", async () => {
    const { deps } = setUp();
    const meter = minutesMeter();
    await callTranscriptTool({ ...deps, usage: meter.usage }, { url: URL, language: "en" });
    expect(meter.admitted).toEqual([1]);
  });

  test("a refusal is a result with isError starting with the contract's code and what to do", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.failWith = "transcript_unavailable";
    const { deps } = setUp({ transcripts });
    const result = await callTranscriptTool(deps, { url: URL });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe(
      "transcript_unavailable: Fake failure transcript_unavailable. Without captions this video cannot be answered " +
        "about; ask the user for another video.",
    );
  });

  test("invalid arguments are invalid_request and cost nothing", async () => {
    const limiter = new CountingLimiter(100);
    const { deps, transcripts } = setUp({ limiter });
    const result = await callTranscriptTool(deps, { url: URL, to_seconds: -5 });
    expect(result.content[0]!.text).toStartWith('invalid_request: Field "to_seconds" must be');
    expect(transcripts.calls).toHaveLength(0);
    expect(limiter.counts.size).toBe(0);
  });

  test("past the key's rate limit: rate_limited with the retry time, and nothing fetched", async () => {
    const { deps, transcripts } = setUp({ limiter: new CountingLimiter(1) });
    expect((await callTranscriptTool(deps, { url: URL })).isError).toBeUndefined();
    const refused = await callTranscriptTool(deps, { url: URL });
    expect(refused.content[0]!.text).toBe(
      "rate_limited: This API key is over its rate limit. Retry after 60 seconds.",
    );
    expect(transcripts.calls).toHaveLength(1);
  });

  test("with a progress callback, the transcript step is told", async () => {
    const { deps } = setUp();
    const steps: ProgressStep[] = [];
    await callTranscriptTool(deps, { url: URL }, { progress: (step) => steps.push(step) });
    expect(steps).toEqual([{ progress: 1, message: "Fetching the transcript" }]);
  });
});
