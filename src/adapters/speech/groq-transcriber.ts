/** @module Transcribes one audio piece with Groq's Whisper through groq-sdk (verbose_json segments). */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import Groq, { toFile } from "groq-sdk";
import { createGroqClient, GROQ_BASE_URL } from "../llm/calls/groq-client.ts";
import { AppError, isAppError } from "../../domain/errors.ts";
import { limitBody, mebibytes } from "../body-limit.ts";
import {
  type LimitDialect,
  type LimitReport,
  reportFromHeaders,
  reportFromMessage,
} from "../llm/budget/limits-report.ts";
import type { AudioPiece } from "./audio-pieces.ts";
import { linkSignals } from "../../domain/linked-signal.ts";

/** One timed line whisper heard; times in seconds from the piece's start. */
export interface SpeechSegment {
  start: number;
  end: number;
  text: string;
}

/** What whisper made of one piece. */
export interface PieceTranscript {
  segments: SpeechSegment[];
  /** Whisper's detected language, as whisper names it (`english`). */
  language?: string;
  /** What the provider said about its limits on this answer. */
  report: LimitReport;
}

/** A 429 from the provider: its report teaches the budget; `error` is what the caller gets. */
export class SpeechLimitError extends Error {
  override name = "SpeechLimitError";
  constructor(readonly report: LimitReport, readonly error: AppError) {
    super(error.message, { cause: error });
  }
}

/** Sends one piece; the video's id names it in errors. */
export type Transcriber = (piece: AudioPiece, videoId: string, signal?: AbortSignal) => Promise<PieceTranscript>;

export interface GroqTranscriberOptions {
  apiKey: string;
  /** OpenAI-compatible endpoint as such clients take it (`LLM_BASE_URL`); Groq's when undefined. */
  baseUrl?: string;
  /** `STT_MODEL`, e.g. `whisper-large-v3-turbo`. */
  model: string;
  /** Time limit of one upload, answer included. */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** How the endpoint writes its rate-limit headers (Groq's by default). */
  dialect?: LimitDialect;
}

/** Most bytes of one transcription answer (segments of a 25 MB piece are a few hundred KB). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * @returns a transcriber: one upload per call, no retries (a failed piece fails the video; the budget waits out 429s)
 */
export function createGroqTranscriber(options: GroqTranscriberOptions): Transcriber {
  const fetcher = options.fetch ?? fetch;
  const tooLarge = () =>
    new AppError(
      "upstream_error",
      `The speech-to-text service sent a response larger than ${mebibytes(MAX_BODY_BYTES)}; try again later`,
    );
  const capped =
    ((input: string | URL | Request, init?: RequestInit) =>
      fetcher(input, init).then((r) => limitBody(r, MAX_BODY_BYTES, tooLarge, init?.signal))) as typeof fetch;
  const client = createGroqClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl ?? GROQ_BASE_URL,
    timeoutMs: options.timeoutMs,
    fetch: capped,
  });

  return async (piece, videoId, signal) => {
    const linked = linkSignals([signal], { ms: options.timeoutMs });
    const combined = linked.signal;
    try {
      const file = await toFile(piece.bytes, `audio.${piece.extension}`);
      const { data, response } = await client.audio.transcriptions
        .create({
          file,
          model: options.model,
          response_format: "verbose_json",
          timestamp_granularities: ["segment"],
          temperature: 0,
        }, { signal: combined })
        .withResponse();
      return { ...readVerbose(data, videoId), report: reportFromHeaders(response.headers, options.dialect) };
    } catch (error) {
      throw failure(error, videoId, options.timeoutMs, linked.timedOut, options.dialect);
    } finally {
      linked.dispose();
    }
  };
}

function readVerbose(data: unknown, videoId: string): Omit<PieceTranscript, "report"> {
  const body = data as { segments?: unknown; language?: unknown } | null;
  if (!body || !Array.isArray(body.segments)) {
    throw new AppError(
      "upstream_error",
      `The speech-to-text service sent no segments for video ${videoId}; try again later`,
    );
  }
  const segments = body.segments.flatMap((s: any): SpeechSegment[] => {
    const start = Number(s?.start);
    const end = Number(s?.end);
    const text = typeof s?.text === "string" ? s.text.trim() : "";
    return Number.isFinite(start) && Number.isFinite(end) && start >= 0 && end >= start && text !== ""
      ? [{ start, end, text }]
      : [];
  });
  return { segments, language: typeof body.language === "string" ? body.language : undefined };
}

function failure(
  error: unknown,
  videoId: string,
  timeoutMs: number,
  timedOut: boolean,
  dialect?: LimitDialect,
): Error {
  if (isAppError(error)) return error;
  if (error instanceof Groq.APIConnectionTimeoutError || timedOut) {
    return new AppError(
      "upstream_timeout",
      `The speech-to-text service did not answer within ${timeoutMs / 1000} s; try again later`,
      { cause: error },
    );
  }
  if (error instanceof Groq.APIUserAbortError) {
    return new AppError(
      "upstream_timeout",
      "The request ran out of time while its audio was being transcribed; try again later",
      { cause: error },
    );
  }
  if (error instanceof Groq.APIError && error.status === 429) {
    const report = { ...reportFromHeaders(error.headers, dialect), ...definedOnly(reportFromMessage(error.message)) };
    const seconds = Math.max(1, Math.ceil((report.retryAfterMs ?? retryAfterMs(error.headers) ?? 60_000) / 1000));
    return new SpeechLimitError(
      { ...report, retryAfterMs: seconds * 1000 },
      new AppError(
        "upstream_blocked",
        `The speech-to-text service is rate-limiting this server; try again in ${seconds} s`,
        { retryAfterSeconds: seconds, cause: error },
      ),
    );
  }
  if (
    error instanceof Groq.APIError && error.status !== undefined && error.status >= 400 && error.status < 500 &&
    error.status !== 401 && error.status !== 403
  ) {
    // The provider could not read this audio (Groq answers 400 for a file it cannot decode).
    return new AppError(
      "transcript_unavailable",
      `Video ${videoId} has no captions and its audio could not be transcribed (HTTP ${error.status}), so there is ` +
        `no transcript to answer from`,
      { cause: error },
    );
  }
  if (error instanceof Groq.APIError && error.status !== undefined) {
    return new AppError("upstream_error", `The speech-to-text service failed (HTTP ${error.status}); try again later`, {
      cause: error,
    });
  }
  return new AppError("upstream_error", "Could not reach the speech-to-text service; try again later", {
    cause: error,
  });
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const value = Number(headers?.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
