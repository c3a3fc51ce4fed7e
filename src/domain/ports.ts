/** @module The ports of the domain: transcript source, answer writer, keys, cache, rate limits and shared work. */
import type { Language, OutputFormat } from "./chat-request.ts";
import type { Intent } from "./reading/intent.ts";
import type { Transcript, TranscriptQuery, WorkObserver } from "./transcript.ts";

/** Where transcripts come from (YouTube in production). */
export interface TranscriptSource {
  /**
   * @throws {AppError} with a video_*, transcript_unavailable or upstream_* code
   */
  fetch(videoId: string, query: TranscriptQuery): Promise<Transcript>;
}

/** What an answer is asked to be. */
export interface AnswerSpec {
  transcript: Transcript;
  prompt: string;
  /** How the prompt is read (see `readIntent`): the literal summary, the whole video in its own words, or a detail. */
  intent: Intent;
  language: Language;
  outputFormat: OutputFormat;
  signal?: AbortSignal;
  /** When the answer is due (ms since the epoch); work that cannot end by then is refused early. */
  deadline?: number;
  /** The writer reports here the work's progress and the answer as it writes it; set only for a streamed request. */
  events?: AnswerEvents;
  /** Hears what the writer itself sent upstream (the offline engine's second reading of the video). */
  observer?: WorkObserver;
  /** Whose work it is (its API key's id): shared resources (the LLM's budget) are shared fairly by holder. */
  holder?: string;
}

/** Where the work is, for a streamed answer: the transcript, parts read out of a total, the final answer. */
export type AnswerProgress =
  | { stage: "transcript" }
  | { stage: "transcribing"; done: number; total: number }
  | { stage: "reading"; done: number; total: number }
  | { stage: "writing" };

/** One event of an answer in progress: a step of the work, or the next piece of the answer's text. */
export type AnswerEvent = { type: "progress"; progress: AnswerProgress } | { type: "delta"; text: string };

/**
 * An event of shared work as its callers and other instances follow it: the answer's events, and the video's length
 * once known (each caller's quota admits it to those minutes before it is told anything else).
 */
export type FlightEvent = AnswerEvent | { type: "length"; videoSeconds?: number; characters?: number };

/**
 * Receives an answer as it is written. The deltas, concatenated, are the
 * answer's final text: a writer sends only text it will not take back.
 */
export interface AnswerEvents {
  progress(progress: AnswerProgress): void;
  delta(text: string): void;
}

/** What one answer cost and how it was written: its model calls and tokens, and how it read the transcript. */
export interface AnswerUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** How the prompt was read: `summary`, `whole` or `detail`. */
  intent?: Intent;
  /** How the transcript was read (`one-call`, `excerpts`, `map-reduce`, `condensed+...`). */
  plan?: string;
  /** Share of the transcript's tokens the model read, 0 to 1. */
  coverage?: number;
  /** Time the answer's LLM calls waited for their share of the provider's budget, summed (ms). */
  budgetWaitMs?: number;
  /** The model that wrote the answer (one of a chain's); kept with a cached answer for the log. */
  model?: string;
}

export interface Answer {
  text: string;
  usage?: AnswerUsage;
}

/** Writes the answer from a transcript (an LLM, or the offline engine). */
export interface AnswerWriter {
  /** Name shown in the banner and logs, e.g. `groq:openai/gpt-oss-20b` or `offline`. */
  readonly name: string;
  /** @throws {AppError} with an upstream_* code when the model fails */
  write(spec: AnswerSpec): Promise<Answer>;
}

/** A caller's key as the service knows it. */
export interface KeyIdentity {
  /** Stable, non-secret id (used for rate limits and logs). */
  id: string;
  name: string;
  /** The key's own rate limit, when issued with one, e.g. `60/min`. */
  rateLimit?: string;
  /** The key's own quotas, when issued with some, e.g. `60min/day,1000min/month`, or `none`. */
  quota?: string;
}

/** Which API keys are accepted. */
export interface ApiKeys {
  /** @returns the key's identity, or undefined when the key is unknown or revoked */
  verify(key: string): Promise<KeyIdentity | undefined>;
}

/** A key-value cache with expiry (in memory, or Redis shared by instances). */
export interface Cache<T> {
  get(key: string): Promise<T | undefined>;
  set(key: string, value: T, ttlMs: number): Promise<void>;
}

/**
 * How a cached lookup was served: `hit` from the cache, `shared` by joining
 * an equal lookup in flight, `miss` by doing the work.
 */
export type CacheLookup = "hit" | "shared" | "miss";

/** Bounds the work in flight towards the upstreams. */
export interface WorkGate {
  /**
   * @param holder whose work it is (an API key's id): one holder may hold only its share of the bound
   * @throws {AppError} `overloaded` when the bound, or the holder's share of it, is reached, without running `work`
   */
  run<T>(work: () => Promise<T>, holder?: string): Promise<T>;
}

/** A key's rate-limit state after one request was counted. */
export interface RateDecision {
  allowed: boolean;
  /** Requests the window allows; undefined when the key is unlimited. */
  limit?: number;
  remaining: number;
  /** Seconds until the budget is fully restored (allowed) or the next request is admitted (refused). */
  resetSeconds: number;
}

/** Per-key request budgets. */
export interface RateLimiter {
  /**
   * Counts a request against the key's budget.
   *
   * @param cost 1 (default) counts one request; 0 only looks (for headers on a
   *   request refused for another reason); -1 gives one back (a request the
   *   server itself turned away, such as 503 `overloaded`)
   */
  take(identity: KeyIdentity, cost?: number): Promise<RateDecision>;
}

/**
 * Who did a piece of shared work, as seen by one caller: `owner` this call ran
 * it, `local` another caller in this process did, `remote` another instance did.
 */
export type WorkRole = "owner" | "local" | "remote";

/** A shared work's value, and who did the work. */
export interface SharedResult<T> {
  value: T;
  role: WorkRole;
}

/**
 * Identical work in flight, done once for every concurrent caller (in this
 * process, or across instances through Redis). Failures reach every caller but
 * are not kept: the next call after one starts afresh.
 */
export interface SharedFlight {
  /**
   * @param key equal only for work that must give the same value; the value must survive JSON
   * @param work runs only when no equal work is in flight anywhere the flight can see; its signal aborts once no
   *   caller waits for it any more (in this process: another instance's waiters then take it over)
   * @param options.signal this caller's own: it stops waiting, never the work others wait for
   * @throws {AppError} the work's failure, or `upstream_timeout` when `signal` aborts first
   */
  run<T>(
    key: string,
    work: (signal: AbortSignal) => Promise<T>,
    options?: { signal?: AbortSignal; events?: FlightEvents },
  ): Promise<SharedResult<T>>;
}

/**
 * A shared work's events, for a flight that relays them between instances
 * (an in-process flight needs none: its callers share one log). The first
 * caller's hooks serve every caller of the work here.
 */
export interface FlightEvents {
  /**
   * Called before the work starts when it runs here: each event it then
   * reports goes to `send`, in order, until `stop` is called.
   *
   * @returns stop
   */
  publish(send: (event: FlightEvent) => void): () => void;
  /**
   * The relay calls this with each event of the work running on another instance, in order, from its first; absent,
   * the relay follows nothing.
   */
  listen?: (event: FlightEvent) => void;
}

/**
 * Cancellations of calls in flight, told to whichever instance runs the call: a client behind a load balancer may
 * send its cancellation to another instance than the one doing the work.
 */
export interface CallCancels {
  /**
   * Runs `cancel` once `key` is cancelled here or (shared through Redis) on another instance.
   *
   * @returns stops watching; call it once the call has ended
   */
  watch(key: string, cancel: () => void): () => void;
  /** Cancels the calls watching `key`, wherever they run. Never throws: a cancel it cannot pass on is lost. */
  cancel(key: string): Promise<void>;
}
