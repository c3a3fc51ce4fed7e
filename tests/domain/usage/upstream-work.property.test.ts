/** @module Property test of issue 48: random callers over the chat use case; all work charged, none for nobody. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { type ChatService, createChatService, type GeneratedAnswer } from "../../../src/domain/chat.ts";
import { createChatRequest } from "../../../src/domain/chat-request.ts";
import { createLocalFlight } from "../../../src/domain/coalesce.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { AnswerSpec, AnswerWriter, Cache, TranscriptSource } from "../../../src/domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../../src/domain/transcript.ts";
import type { Spent } from "../../../src/domain/usage/account.ts";
import { openGate } from "../../support/fake/ports.ts";

const VIDEO_SECONDS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one caller does: when it asks, what it asks, how it waits, and how it stops waiting. */
interface CallerPlan {
  startMs: number;
  prompt: number;
  instance: number;
  streamed: boolean;
  /** Minutes left under a `min` quota; undefined: no quota of minutes. */
  minutesLeft?: number;
  /** How it ends: it waits for its answer, leaves (hangs up or cancels) after `ms`, or its time limit is `ms`. */
  end: { kind: "stays" } | { kind: "leaves"; ms: number } | { kind: "times out"; ms: number };
}

interface Plan {
  callers: CallerPlan[];
  /** The video has no captions: its transcript is made from its audio, in pieces. */
  speech: boolean;
  transcriptMs: number;
  pieces: number;
  pieceMs: number;
  chunks: number;
  chunkMs: number;
  cached: boolean;
}

const callerPlan: fc.Arbitrary<CallerPlan> = fc.record({
  startMs: fc.integer({ min: 0, max: 12 }),
  prompt: fc.integer({ min: 0, max: 1 }),
  instance: fc.integer({ min: 0, max: 1 }),
  streamed: fc.boolean(),
  minutesLeft: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
  end: fc.oneof(
    fc.constant({ kind: "stays" as const }),
    fc.record({ kind: fc.constant("leaves" as const), ms: fc.integer({ min: 0, max: 30 }) }),
    fc.record({ kind: fc.constant("times out" as const), ms: fc.integer({ min: 1, max: 30 }) }),
  ),
});

const plan: fc.Arbitrary<Plan> = fc.record({
  callers: fc.array(callerPlan, { minLength: 1, maxLength: 5 }),
  speech: fc.boolean(),
  transcriptMs: fc.integer({ min: 0, max: 6 }),
  pieces: fc.integer({ min: 1, max: 3 }),
  pieceMs: fc.integer({ min: 0, max: 5 }),
  chunks: fc.integer({ min: 1, max: 3 }),
  chunkMs: fc.integer({ min: 0, max: 5 }),
  cached: fc.boolean(),
});

/** One caller's side as a meter sees it (the rules of `Metered`, in memory). */
class Caller {
  waiting = false;
  ended = false;
  committed?: number;
  failureCharged = false;
  /** The ledger: what the caller's key is charged. */
  charged = { requests: 0, minutes: 0, tokens: 0, audioSeconds: 0 };
  readonly leave = new AbortController();
  constructor(readonly id: string, readonly plan: CallerPlan, readonly violations: string[]) {}

  admit = async (minutes: number): Promise<void> => {
    // A store's round trip.
    await sleep(0);
    if (this.ended) throw new AppError("quota_exceeded", "The request this work was started for has ended");
    if (this.plan.minutesLeft !== undefined && minutes > this.plan.minutesLeft) {
      throw new AppError("quota_exceeded", `${this.id} has ${this.plan.minutesLeft} minutes left`);
    }
    this.committed ??= minutes;
  };

  working = (minutes: number): void => {
    if (this.committed !== undefined) return;
    if (this.ended) throw new AppError("quota_exceeded", "The request this work was started for has ended");
    this.committed = minutes;
  };

  spend = (spent: Spent): void => {
    if (this.committed === undefined) this.violations.push(`${this.id} was charged work before it was committed`);
    this.charged.tokens += spent.inputTokens + spent.outputTokens;
    this.charged.audioSeconds += spent.audioSeconds;
  };

  chargeFailure = (): void => void (this.failureCharged = true);

  answered(): void {
    this.ended = true;
    this.charged.requests += 1;
    this.charged.minutes += this.committed ?? 1;
  }

  refused(): void {
    this.ended = true;
    const left = this.leave.signal.aborted;
    if (this.committed !== undefined && (left || this.failureCharged)) {
      this.charged.requests += 1;
      this.charged.minutes += this.committed;
    }
  }
}

/** The fakes' view of the run: each piece of upstream work as it starts, checked against who waits. */
class Upstream {
  readonly violations: string[] = [];
  callers: Caller[] = [];
  audioSeconds = 0;
  tokens = 0;
  pieces = 0;

  /** A piece of work starts: some caller must wait for it. */
  starts(what: string, signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw signal.reason;
    this.pieces++;
    if (!this.callers.some((caller) => caller.waiting)) this.violations.push(`${what} started while nobody waited`);
  }

  source(plan: Plan): TranscriptSource {
    return {
      fetch: async (videoId: string, query: TranscriptQuery): Promise<Transcript> => {
        this.starts("a transcript fetch", query.signal);
        await sleep(plan.transcriptMs);
        if (query.signal?.aborted) throw query.signal.reason;
        const transcript: Transcript = {
          videoId,
          language: "en",
          isGenerated: plan.speech,
          isTranslated: false,
          durationSeconds: VIDEO_SECONDS,
          cues: [{ start: 0, duration: 5, text: "Rivers carry water" }],
        };
        if (!plan.speech) return transcript;
        await query.beforeSpeech?.(VIDEO_SECONDS);
        for (let piece = 0; piece < plan.pieces; piece++) {
          await sleep(plan.pieceMs);
          this.starts("a piece of audio", query.signal);
          this.audioSeconds += 10;
          query.onAudioTranscribed?.(10);
        }
        return { ...transcript, speech: { audioSeconds: 10 * plan.pieces, uploads: plan.pieces, sttMs: 1 } };
      },
    };
  }

  writer(plan: Plan): AnswerWriter {
    return {
      name: "property-fake",
      write: async (spec: AnswerSpec) => {
        this.starts("a model call", spec.signal);
        const holder = this.callers.find((caller) => caller.id === spec.holder);
        if (!holder || holder.committed === undefined) {
          this.violations.push(`a model call started for ${spec.holder}, not committed to it`);
        }
        let text = "";
        for (let chunk = 0; chunk < plan.chunks; chunk++) {
          await sleep(plan.chunkMs);
          if (spec.signal?.aborted) throw spec.signal.reason;
          spec.events?.delta(`w${chunk} `);
          text += `w${chunk} `;
        }
        this.tokens += 15;
        return { text, usage: { calls: 1, inputTokens: 10, outputTokens: 5 } };
      },
    };
  }
}

/** Runs one plan: every caller on its instance, then the rule's checks. */
async function run(plan: Plan): Promise<{ upstream: Upstream; callers: Caller[] }> {
  const upstream = new Upstream();
  const flights = createLocalFlight();
  const map = new Map<string, GeneratedAnswer>();
  const answers: Cache<GeneratedAnswer> = plan.cached
    ? { get: async (key) => map.get(key), set: async (key, value) => void map.set(key, value) }
    : { get: async () => undefined, set: async () => {} };
  const instances: ChatService[] = [0, 1].map(() =>
    createChatService({
      transcripts: upstream.source(plan),
      writer: upstream.writer(plan),
      answers,
      gate: openGate,
      flights,
      answerTtlMs: 60_000,
      requestTimeoutMs: 200,
    })
  );
  const callers = plan.callers.map((p, i) => new Caller(`key_${i}`, p, upstream.violations));
  upstream.callers = callers;
  await Promise.all(callers.map(async (caller) => {
    const { plan: p } = caller;
    await sleep(p.startMs);
    const request = createChatRequest({ url: "https://youtu.be/GJLlxj_dtq8", prompt: `question ${p.prompt}` });
    if (p.end.kind === "leaves") {
      setTimeout(() => {
        caller.waiting = false;
        caller.leave.abort(new Error("the caller left"));
      }, p.end.ms);
    }
    caller.waiting = true;
    try {
      await instances[p.instance]!.answer(request, {
        signal: caller.leave.signal,
        holder: caller.id,
        ...(p.minutesLeft !== undefined ? { admit: caller.admit } : {}),
        working: caller.working,
        spend: caller.spend,
        chargeFailure: caller.chargeFailure,
        ...(p.streamed ? { listener: () => {} } : {}),
        ...(p.end.kind === "times out" ? { timeoutMs: p.end.ms } : {}),
      });
      caller.waiting = false;
      caller.answered();
    } catch {
      caller.waiting = false;
      caller.refused();
    }
  }));
  // Work that ran on for nobody would show here: give it the time to.
  await sleep(plan.transcriptMs + plan.pieces * plan.pieceMs + plan.chunks * plan.chunkMs + 5);
  return { upstream, callers };
}

describe("upstream work only for an admitted caller (property)", () => {
  test(
    "random joins, leaves, cancels and time-outs over two instances: all work charged, none for nobody",
    async () => {
      await fc.assert(
        fc.asyncProperty(plan, async (p) => {
          const { upstream, callers } = await run(p);
          expect(upstream.violations).toEqual([]);
          // The ledger holds every piece the fakes saw: each audio piece's seconds, each finished model call's tokens.
          const sum = (of: (caller: Caller) => number) => callers.reduce((total, caller) => total + of(caller), 0);
          expect(sum((caller) => caller.charged.audioSeconds)).toBe(upstream.audioSeconds);
          expect(sum((caller) => caller.charged.tokens)).toBe(upstream.tokens);
          // A caller that was answered, or left once committed, is charged its request and the video's minutes.
          for (const caller of callers) {
            expect(caller.ended).toBe(true);
            if (caller.charged.audioSeconds > 0 && caller.leave.signal.aborted) {
              expect(caller.charged.minutes).toBeGreaterThan(0);
            }
          }
        }),
        { numRuns: 100 },
      );
    },
    60_000,
  );
});
