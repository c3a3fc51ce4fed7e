/** @module In-memory fakes of the domain's ports, and the real HTTP app wired to them. */
import type { GeneratedAnswer } from "../../../src/domain/chat.ts";
import { createChatService } from "../../../src/domain/chat.ts";
import { AppError, type ErrorCode } from "../../../src/domain/errors.ts";
import type {
  AnswerSpec,
  AnswerWriter,
  Cache,
  KeyIdentity,
  RateDecision,
  RateLimiter,
  TranscriptSource,
  WorkGate,
} from "../../../src/domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../../src/domain/transcript.ts";
import { createHttpApp } from "../../../src/app/http/http-app.ts";
import { silentLogger } from "../../../src/app/log/logger.ts";

/** A transcript like the fixture video's: 316 s long, three English cues. */
export function sampleTranscript(videoId = "GJLlxj_dtq8"): Transcript {
  return {
    videoId,
    language: "en",
    isGenerated: false,
    isTranslated: false,
    durationSeconds: 316,
    title: "Surface Go Review",
    cues: [
      { start: 0, duration: 1.54, text: "Hey, this is just a test" },
      { start: 1.54, duration: 4.16, text: "this is not the original transcript" },
      { start: 5.7, duration: 3.239, text: "just something shorter, I made up for testing" },
    ],
  };
}

/** A transcript source that serves one transcript, or fails with a chosen code. */
export class FakeTranscripts implements TranscriptSource {
  calls: { videoId: string; query: TranscriptQuery }[] = [];
  failWith?: ErrorCode;
  delayMs = 0;
  transcript = sampleTranscript();

  async fetch(videoId: string, query: TranscriptQuery): Promise<Transcript> {
    this.calls.push({ videoId, query });
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failWith) {
      throw new AppError(this.failWith, `Fake failure ${this.failWith}`, {
        retryAfterSeconds: this.failWith === "upstream_blocked" ? 30 : undefined,
      });
    }
    return { ...this.transcript, videoId };
  }
}

/** A writer that answers "answer to <prompt> in <language>". */
export class FakeWriter implements AnswerWriter {
  readonly name = "fake";
  specs: AnswerSpec[] = [];
  failWith?: ErrorCode | "bug";

  async write(spec: AnswerSpec) {
    this.specs.push(spec);
    if (this.failWith === "bug") throw new TypeError("secret internal detail at /srv/app.ts:12");
    if (this.failWith) throw new AppError(this.failWith, `Fake failure ${this.failWith}`);
    return {
      text: `answer to ${spec.prompt} in ${spec.language} as ${spec.outputFormat}`,
      usage: { calls: 1, inputTokens: 10, outputTokens: 5 },
    };
  }
}

export const noCache: Cache<GeneratedAnswer> = { get: async () => undefined, set: async () => {} };
export const openGate: WorkGate = { run: (work) => work() };

/** A limiter that admits the first `limit` requests per key. */
export class CountingLimiter implements RateLimiter {
  counts = new Map<string, number>();
  constructor(readonly limit: number) {}
  /** @param cost as the port says: 1 counts, 0 only looks, -1 gives one back */
  async take(identity: KeyIdentity, cost = 1): Promise<RateDecision> {
    const used = (this.counts.get(identity.id) ?? 0) + cost;
    this.counts.set(identity.id, used);
    return {
      allowed: used <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - used),
      resetSeconds: 60,
    };
  }
}

export const TEST_KEY = "test-key-123";

/** The real chat use case on in-memory fakes: no cache, an open gate unless given one, a 5 s time limit. */
export function chatWithFakes(options: { transcripts?: FakeTranscripts; writer?: FakeWriter; gate?: WorkGate } = {}) {
  const transcripts = options.transcripts ?? new FakeTranscripts();
  const writer = options.writer ?? new FakeWriter();
  const chat = createChatService({
    transcripts,
    writer,
    answers: noCache,
    answerTtlMs: 0,
    gate: options.gate ?? openGate,
    requestTimeoutMs: 5_000,
  });
  return { chat, transcripts, writer };
}

/** The real HTTP app with in-memory fakes of every port. */
export function appWithFakes(
  options: {
    transcripts?: FakeTranscripts;
    writer?: FakeWriter;
    limiter?: RateLimiter;
    gate?: WorkGate;
    maxBodyBytes?: number;
    bodyTimeoutMs?: number;
    corsOrigins?: string[];
  } = {},
) {
  const { chat, transcripts, writer } = chatWithFakes(options);
  const app = createHttpApp({
    chat,
    apiKeys: { verify: async (key) => (key === TEST_KEY ? { id: "k1", name: "test" } : undefined) },
    rateLimiter: options.limiter ?? { take: async () => ({ allowed: true, remaining: Infinity, resetSeconds: 0 }) },
    maxBodyBytes: options.maxBodyBytes ?? 16_384,
    bodyTimeoutMs: options.bodyTimeoutMs,
    logger: silentLogger,
    corsOrigins: options.corsOrigins,
  });
  return { app, transcripts, writer };
}
