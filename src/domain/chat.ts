import type { ChatRequest, Language, OutputFormat } from "./chat-request.ts";
import { Coalescer } from "./coalesce.ts";
import { describeDuration } from "./duration.ts";
import { AppError, isAppError } from "./errors.ts";
import type { AnswerUsage, AnswerWriter, Cache, CacheLookup, TranscriptSource, WorkGate } from "./ports.ts";
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
}

export interface ChatServiceDeps {
  transcripts: TranscriptSource;
  writer: AnswerWriter;
  answers: Cache<GeneratedAnswer>;
  gate: WorkGate;
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
  const inflight = new Coalescer<GeneratedAnswer>();
  const now = deps.now ?? (() => performance.now());

  async function generate(request: ChatRequest): Promise<GeneratedAnswer> {
    const signal = AbortSignal.timeout(deps.requestTimeoutMs);
    const work = deps.gate.run(() => fetchAndWrite(request, signal));
    return await withDeadline(work, signal, deps.requestTimeoutMs);
  }

  async function fetchAndWrite(request: ChatRequest, signal: AbortSignal): Promise<GeneratedAnswer> {
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
    });
    return {
      output: answer.text,
      videoDuration: describeDuration(transcript.durationSeconds, lastCueEnd(transcript.cues)),
      transcriptLanguage: transcript.language,
      usage: answer.usage,
      timings: { transcriptMs: fetched - started, generationMs: now() - fetched },
    };
  }

  return {
    async answer(request) {
      const key = answerKey(request);
      const cached = await deps.answers.get(key);
      if (cached) {
        deps.onLookup?.("hit");
        return outcome(request, cached, "hit");
      }
      // Told before the work, so a lookup whose generation fails is still counted.
      deps.onLookup?.(inflight.has(key) ? "shared" : "miss");
      const { value, shared } = await inflight.run(key, async () => {
        const fresh = await generate(request);
        await deps.answers.set(key, fresh, deps.answerTtlMs);
        return fresh;
      });
      return outcome(request, value, shared ? "shared" : "miss");
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

async function withDeadline<T>(work: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  let onAbort = (): void => {};
  const expired = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AppError("upstream_timeout", `The request took longer than ${ms / 1000} s and was stopped; try again later`));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, expired]);
  } catch (error) {
    if (isAppError(error)) throw error;
    if (signal.aborted) throw new AppError("upstream_timeout", `The request took longer than ${ms / 1000} s and was stopped; try again later`, { cause: error });
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
