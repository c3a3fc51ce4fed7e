/** @module The transcript use case: a video's timed transcript in the language asked, and what kind of track it is. */
import { raceAbort, timedOut } from "./deadline.ts";
import { describeDuration, videoSeconds } from "./duration.ts";
import { isAppError } from "./errors.ts";
import { linkSignals } from "./linked-signal.ts";
import type { AnswerProgress, TranscriptSource, WorkGate } from "./ports.ts";
import {
  heardNothing,
  lastCueEnd,
  nothingHeard,
  type Transcript,
  type TranscriptQuery,
  type WorkObserver,
} from "./transcript.ts";

/** How the transcript was made: captions written by people, YouTube's automatic captions, or our speech-to-text. */
export type TrackKind = "manual" | "automatic" | "speech-to-text";

/**
 * How the transcript's language relates to the one asked: a track (or speech) in that language, YouTube's translation
 * into it, or the video's own language (no language asked, or neither a track nor a translation in it).
 */
export type LanguageSource = "requested" | "translated" | "original";

/** What a caller asks for: one video, in a language or as it is. */
export interface TranscriptRequest {
  videoId: string;
  /** A language code such as `de` or `pt-BR`; absent, the video's own track. */
  language?: string;
}

/** A video's transcript with the facts a reader needs about it. */
export interface TranscriptReading {
  transcript: Transcript;
  kind: TrackKind;
  languageSource: LanguageSource;
  /** The video's length in seconds: YouTube's metadata, else the last cue's end; undefined when neither is known. */
  durationSeconds?: number;
  /** The same length in the words of `video_duration` (`"5 minutes"`). */
  videoDuration: string;
}

/** How one caller waits for a transcript. */
export interface ReadOptions {
  /** The caller's own: it stops waiting once this aborts (the fetch goes on for whoever shares it, else stops). */
  signal?: AbortSignal;
  /** The caller's time limit; the reader's `requestTimeoutMs` by default. */
  timeoutMs?: number;
  /** The reader calls this at each step of the work: the transcript, and the pieces of a speech transcription. */
  onProgress?: (progress: AnswerProgress) => void;
  /** Hears what the adapters do upstream for the fetch, when this caller runs it (its log line). */
  observer?: WorkObserver;
  /**
   * Awaited before a speech transcription run for this caller fetches any audio, with the video's length in seconds
   * (undefined: unknown): the caller's quota holds its minutes (it throws the refusal; nothing is transcribed).
   */
  beforeSpeech?: (videoSeconds: number | undefined) => Promise<void>;
  /** Told the seconds of each piece of audio transcribed for this caller, as it is (charged at once). */
  onAudioTranscribed?: (seconds: number) => void;
  /** Whose read it is (its API key's id), for its share of the bound on work in flight. */
  holder?: string;
  /**
   * Told when the transcript heard nothing (a caption-less video whose audio holds no speech), before the reader
   * refuses with `transcript_unavailable`: a caller whose own work transcribed it is charged (`chargeFailure`).
   */
  onNothingHeard?: () => void;
}

/** The use case: reads one video's transcript. */
export interface TranscriptReader {
  /** @throws {AppError} with a video_*, transcript_unavailable, upstream_* or overloaded code */
  read(request: TranscriptRequest, options?: ReadOptions): Promise<TranscriptReading>;
}

/**
 * The transcript use case on the same source as the chat use case (its cache,
 * its sharing of fetches in flight, its egress routes and speech-to-text) and
 * the same bound on work in flight.
 *
 * @param deps the transcript source, the gate, and the default time limit
 */
export function createTranscriptReader(
  deps: { transcripts: TranscriptSource; gate: WorkGate; requestTimeoutMs: number },
): TranscriptReader {
  return {
    async read(request, options = {}) {
      const timeoutMs = options.timeoutMs ?? deps.requestTimeoutMs;
      const linked = linkSignals([options.signal], { ms: timeoutMs, reason: () => timedOut(timeoutMs) });
      try {
        options.onProgress?.({ stage: "transcript" });
        const query: TranscriptQuery = {
          ...(request.language
            ? { languages: [request.language], translate: true }
            : { languages: [], translate: false }),
          signal: linked.signal,
          deadline: Date.now() + timeoutMs,
          observer: options.observer,
          onTranscribing: (done, total) => options.onProgress?.({ stage: "transcribing", done, total }),
          beforeSpeech: options.beforeSpeech && ((seconds) => options.beforeSpeech!(videoSeconds(seconds))),
          onAudioTranscribed: options.onAudioTranscribed,
        };
        const fetched = deps.gate.run(() => deps.transcripts.fetch(request.videoId, query), options.holder);
        // The reader tells a caller that stopped waiting why: its time limit, or the reason it stopped (a shutdown).
        const transcript = await raceAbort(fetched, linked.signal, (signal) => stopped(signal, timeoutMs));
        if (heardNothing(transcript)) {
          // Its audio was transcribed for this caller (when it was: not from the cache) and holds no speech: charged.
          options.onNothingHeard?.();
          throw nothingHeard(request.videoId);
        }
        return describeReading(transcript, request.language);
      } finally {
        linked.dispose();
      }
    },
  };
}

/**
 * @param transcript the transcript fetched
 * @param asked the language asked, if any
 * @returns the transcript with its kind, its language's relation to the one asked, and the video's length
 */
export function describeReading(transcript: Transcript, asked: string | undefined): TranscriptReading {
  const kind: TrackKind = transcript.speech ? "speech-to-text" : transcript.isGenerated ? "automatic" : "manual";
  const languageSource: LanguageSource = asked === undefined
    ? "original"
    : transcript.isTranslated
    ? "translated"
    : samePrimaryLanguage(transcript.language, asked)
    ? "requested"
    : "original";
  const end = lastCueEnd(transcript.cues);
  const durationSeconds = transcript.durationSeconds ?? end;
  return {
    transcript,
    kind,
    languageSource,
    ...(durationSeconds !== undefined && durationSeconds > 0 ? { durationSeconds } : {}),
    videoDuration: describeDuration(transcript.durationSeconds, end),
  };
}

/** `en-US` is English, as a caption track's language is matched. */
function samePrimaryLanguage(code: string, wanted: string): boolean {
  return code.toLowerCase().split(/[-_]/)[0] === wanted.toLowerCase().split(/[-_]/)[0];
}

function stopped(signal: AbortSignal, timeoutMs: number): unknown {
  return isAppError(signal.reason) ? signal.reason : timedOut(timeoutMs, signal.reason);
}
