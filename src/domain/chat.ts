import type { ChatRequest, Language, OutputFormat } from "./chat-request.ts";
import { createLocalFlight } from "./coalesce.ts";
import { describeDuration } from "./duration.ts";
import { AppError, isAppError } from "./errors.ts";
import type { AnswerUsage, AnswerWriter, Cache, CacheLookup, SharedFlight, TranscriptSource, WorkGate, WorkRole } from "./ports.ts";
import { lastCueEnd } from "./transcript.ts";

/** The response body of spec §2.2. */
export interface ChatResponse {
  url: string;
  model: string;
  prompt: string;
  language: Language;
  output_format: OutputFormat;
  output: string;
  video_duration: string;
}

/** What was generated for a request; shared by equal requests and cached. */
export interface GeneratedAnswer {
  output: string;
  videoDuration: string;
  transcriptLanguage: string;
  usage?: AnswerUsage;
  timings: { transcriptMs: number; generationMs: number };
}

/** How a request was served, for logs and Server-Timing. */
export interface ChatOutcome {
  response: ChatResponse;
  answer: GeneratedAnswer;
  /** `hit` from the response cache, `shared` with an equal request in flight, `miss` generated. */
  cache: CacheLookup;
  /** Who generated it, when not a cache hit: this request, another here, or another instance. */
  work?: WorkRole;
}

export interface ChatServiceDeps {
  transcripts: TranscriptSource;
  writer: AnswerWriter;
  answers: Cache<GeneratedAnswer>;
  gate: WorkGate;
  /** Where identical generations in flight are shared; in this process only by default. */
  flights?: SharedFlight;
  answerTtlMs: number;
  /** Bound on the whole request's work. */
  requestTimeoutMs: number;
  now?: () => number;
  /** Told how each answer-cache lookup was served, failed generations included (metrics). */
  onLookup?: (result: CacheLookup) => void;
}

/** The use case: answers one chat request about a video. */
export interface ChatService {
  /** @throws {AppError} for every failure the caller is told about */
  answer(request: ChatRequest): Promise<ChatOutcome>;
}

/** @returns the use case wired to its ports */
export function createChatService(deps: ChatServiceDeps): ChatService {
  const flights = deps.flights ?? createLocalFlight();
  const now = deps.now ?? (() => performance.now());

  async function generate(request: ChatRequest): Promise<GeneratedAnswer> {
    const signal = AbortSignal.timeout(deps.requestTimeoutMs);
    const deadline = Date.now() + deps.requestTimeoutMs;
    const work = deps.gate.run(() => fetchAndWrite(request, signal, deadline));
    return await withDeadline(work, signal, deps.requestTimeoutMs);
  }

  async function fetchAndWrite(request: ChatRequest, signal: AbortSignal, deadline: number): Promise<GeneratedAnswer> {
    const started = now();
    const transcript = await deps.transcripts.fetch(request.videoId, {
      languages: [request.language],
      translate: true,
      signal,
    });
    const fetched = now();
    const answer = await deps.writer.write({
      transcript,
      prompt: request.prompt,
      isSummary: request.isSummary,
      language: request.language,
      outputFormat: request.outputFormat,
      signal,
      deadline,
    });
    return {
      output: answer.text,
      videoDuration: describeDuration(transcript.durationSeconds, lastCueEnd(transcript.cues)),
      transcriptLanguage: transcript.language,
      usage: answer.usage,
      timings: { transcriptMs: fetched - started, generationMs: now() - fetched },
    };
  }

  /** Generates and caches; looks again first, as another instance may have just finished. */
  async function generateOnce(key: string, request: ChatRequest): Promise<GeneratedAnswer> {
    const finished = await deps.answers.get(key);
    if (finished) return finished;
    const fresh = await generate(request);
    await deps.answers.set(key, fresh, deps.answerTtlMs);
    return fresh;
  }

  return {
    async answer(request) {
      const key = answerKey(request);
      const cached = await deps.answers.get(key);
      if (cached) {
        deps.onLookup?.("hit");
        return outcome(request, cached, "hit");
      }
      const caller = deadline(deps.requestTimeoutMs);
      try {
        const { value, role } = await flights.run(`answer:${key}`, () => generateOnce(key, request), { signal: caller.signal });
        deps.onLookup?.(role === "owner" ? "miss" : "shared");
        return { ...outcome(request, value, role === "owner" ? "miss" : "shared"), work: role };
      } catch (error) {
        // A lookup whose generation failed is counted too, as a miss.
        deps.onLookup?.("miss");
        throw error;
      } finally {
        caller.clear();
      }
    },
  };
}

/** Requests that must get the same answer share this key. */
export function answerKey(request: ChatRequest): string {
  const ask = request.isSummary ? "summary" : request.prompt;
  return JSON.stringify([request.videoId, request.language, request.outputFormat, ask]);
}

function outcome(request: ChatRequest, answer: GeneratedAnswer, cache: ChatOutcome["cache"]): ChatOutcome {
  return {
    cache,
    answer,
    response: {
      url: request.url,
      model: request.model,
      prompt: request.prompt,
      language: request.language,
      output_format: request.outputFormat,
      output: answer.output,
      video_duration: answer.videoDuration,
    },
  };
}

/** A caller's own deadline: it stops waiting for shared work with `upstream_timeout`. */
function deadline(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timedOut(ms)), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

function timedOut(ms: number, cause?: unknown): AppError {
  return new AppError("upstream_timeout", `The request took longer than ${ms / 1000} s and was stopped; try again later`, { cause });
}

async function withDeadline<T>(work: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  let onAbort = (): void => {};
  const expired = new Promise<never>((_, reject) => {
    onAbort = () => reject(timedOut(ms));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, expired]);
  } catch (error) {
    if (isAppError(error)) throw error;
    if (signal.aborted) throw timedOut(ms, error);
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
