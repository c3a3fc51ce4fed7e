/** @module Harness of issue 48's property tests: random chat and get_transcript callers, fakes seeing all work. */
import { expect } from "bun:test";
import fc from "fast-check";
import { createCachedTranscriptSource } from "../../src/adapters/youtube/cached-transcript-source.ts";
import { type ChatService, createChatService, type GeneratedAnswer } from "../../src/domain/chat.ts";
import { createChatRequest } from "../../src/domain/chat-request.ts";
import { AppError } from "../../src/domain/errors.ts";
import type { AnswerSpec, AnswerWriter, Cache, SharedFlight, TranscriptSource } from "../../src/domain/ports.ts";
import { textCharacters, type Transcript, type TranscriptQuery } from "../../src/domain/transcript.ts";
import { createTranscriptReader, type TranscriptReader } from "../../src/domain/transcript-reading.ts";
import { Account, type Spent } from "../../src/domain/usage/account.ts";
import { chargedMinutes } from "../../src/domain/usage/quota.ts";
import { speechCharges, withOwnRefusals } from "../../src/domain/usage/upstream-work.ts";
import { openGate } from "./fake/ports.ts";

const VIDEO_SECONDS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one caller does: when it asks, what it asks, how it waits, and how it stops waiting. */
export interface CallerPlan {
  startMs: number;
  prompt: number;
  instance: number;
  /**
   * How it asks: chat answered as JSON, chat streamed (what SSE is at the use case: the HTTP adapter only writes the
   * listener's events), or MCP's `get_transcript` (the transcript use case, metered as transcript-call.ts meters it).
   */
  via: "json" | "streamed" | "transcript";
  /** Minutes left under a `min` quota; undefined: no quota of minutes. */
  minutesLeft?: number;
  /** How it ends: it waits for its answer, leaves (hangs up or cancels) after `ms`, or its time limit is `ms`. */
  end: { kind: "stays" } | { kind: "leaves"; ms: number } | { kind: "times out"; ms: number };
}

export interface Plan {
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

export const callerPlan: fc.Arbitrary<CallerPlan> = fc.record({
  startMs: fc.integer({ min: 0, max: 12 }),
  prompt: fc.integer({ min: 0, max: 1 }),
  instance: fc.integer({ min: 0, max: 1 }),
  via: fc.constantFrom("json" as const, "streamed" as const, "transcript" as const),
  minutesLeft: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
  end: fc.oneof(
    fc.constant({ kind: "stays" as const }),
    fc.record({ kind: fc.constant("leaves" as const), ms: fc.integer({ min: 0, max: 30 }) }),
    fc.record({ kind: fc.constant("times out" as const), ms: fc.integer({ min: 1, max: 30 }) }),
  ),
});

export const plan: fc.Arbitrary<Plan> = fc.record({
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
export class Caller {
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
export class Upstream {
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

/** What one instance serves: the chat use case and the transcript use case, on one transcript source. */
interface Instance {
  chat: ChatService;
  transcripts: TranscriptReader;
}

/**
 * Runs one plan: every caller on its instance, then waits for work that would run on for nobody.
 *
 * @param flights each instance's flights (one shared in-process flight, or one per instance on one Redis)
 * @param settleMs more time after the callers end for work run for nobody to show (Redis round trips)
 */
export async function run(
  plan: Plan,
  flights: readonly [SharedFlight, SharedFlight],
  settleMs = 0,
): Promise<{ upstream: Upstream; callers: Caller[] }> {
  const upstream = new Upstream();
  const map = new Map<string, GeneratedAnswer>();
  const answers: Cache<GeneratedAnswer> = plan.cached
    ? { get: async (key) => map.get(key), set: async (key, value) => void map.set(key, value) }
    : { get: async () => undefined, set: async () => {} };
  const instances: Instance[] = flights.map((flight) => {
    // As composed: both use cases read through the sharing of fetches in flight (across instances on Redis).
    const source = createCachedTranscriptSource({
      source: upstream.source(plan),
      cache: { get: async () => undefined, set: async () => {} },
      ttlMs: 0,
      flights: flight,
    });
    return {
      chat: createChatService({
        transcripts: source,
        writer: upstream.writer(plan),
        answers,
        gate: openGate,
        flights: flight,
        answerTtlMs: 60_000,
        requestTimeoutMs: 200,
      }),
      transcripts: createTranscriptReader({ transcripts: source, gate: openGate, requestTimeoutMs: 200 }),
    };
  });
  const callers = plan.callers.map((p, i) => new Caller(`key_${i}`, p, upstream.violations));
  upstream.callers = callers;
  await Promise.all(callers.map(async (caller) => {
    const { plan: p } = caller;
    await sleep(p.startMs);
    if (p.end.kind === "leaves") {
      setTimeout(() => {
        caller.waiting = false;
        caller.leave.abort(new Error("the caller left"));
      }, p.end.ms);
    }
    caller.waiting = true;
    try {
      const instance = instances[p.instance]!;
      await (p.via === "transcript" ? readTranscript(instance.transcripts, caller) : askChat(instance.chat, caller));
      caller.waiting = false;
      caller.answered();
    } catch {
      caller.waiting = false;
      caller.refused();
    }
  }));
  // Work that ran on for nobody would show here: give it the time to.
  await sleep(plan.transcriptMs + plan.pieces * plan.pieceMs + plan.chunks * plan.chunkMs + 5 + settleMs);
  return { upstream, callers };
}

/** A chat caller, answered as JSON or streamed. */
async function askChat(chat: ChatService, caller: Caller): Promise<void> {
  const { plan: p } = caller;
  const request = createChatRequest({ url: "https://youtu.be/GJLlxj_dtq8", prompt: `question ${p.prompt}` });
  await chat.answer(request, {
    signal: caller.leave.signal,
    holder: caller.id,
    ...(p.minutesLeft !== undefined ? { admit: caller.admit } : {}),
    working: caller.working,
    spend: caller.spend,
    chargeFailure: caller.chargeFailure,
    ...(p.via === "streamed" ? { listener: () => {} } : {}),
    ...(p.end.kind === "times out" ? { timeoutMs: p.end.ms } : {}),
  });
}

/**
 * A `get_transcript` caller, metered as src/app/mcp/transcript-call.ts meters it: held the video's minutes before
 * speech-to-text run for it, charged each piece's audio seconds, and else admitted to its page's minutes.
 */
async function readTranscript(reader: TranscriptReader, caller: Caller): Promise<void> {
  const { plan: p } = caller;
  let transcribed: { videoSeconds?: number } | undefined;
  const account = new Account({
    ...(p.minutesLeft !== undefined ? { admit: caller.admit } : {}),
    working: caller.working,
    spend: caller.spend,
    chargeFailure: caller.chargeFailure,
  });
  const charges = speechCharges(account, (videoSeconds) => (transcribed = { videoSeconds }));
  const reading = await withOwnRefusals(account, () =>
    reader.read({ videoId: "GJLlxj_dtq8", language: "en" }, {
      ...charges,
      signal: caller.leave.signal,
      holder: caller.id,
      onNothingHeard: () => account.chargeFailure(),
      ...(p.end.kind === "times out" ? { timeoutMs: p.end.ms } : {}),
    }));
  const cues = reading.transcript.cues;
  const pageSeconds = cues.length === 0 ? 0 : cues.at(-1)!.start + cues.at(-1)!.duration - cues[0]!.start;
  if (!transcribed && p.minutesLeft !== undefined) {
    await caller.admit(chargedMinutes(pageSeconds, textCharacters(cues)));
  }
}

/**
 * The rule's checks after a run: no piece of work started while nobody waited, each model call for a committed
 * caller, each audio second charged to a committed caller (the fakes' violations); the ledger equals what the fakes
 * saw; every caller ended, and one that left once charged audio is charged its minutes.
 */
export function checkRun({ upstream, callers }: { upstream: Upstream; callers: Caller[] }): void {
  expect(upstream.violations).toEqual([]);
  // The ledger holds every piece the fakes saw: each audio piece's seconds, each finished model call's tokens.
  const sum = (of: (caller: Caller) => number) => callers.reduce((total, caller) => total + of(caller), 0);
  expect(sum((caller) => caller.charged.audioSeconds)).toBe(upstream.audioSeconds);
  expect(sum((caller) => caller.charged.tokens)).toBe(upstream.tokens);
  for (const caller of callers) {
    expect(caller.ended).toBe(true);
    if (caller.charged.audioSeconds > 0 && caller.leave.signal.aborted) {
      expect(caller.charged.minutes).toBeGreaterThan(0);
    }
  }
}
