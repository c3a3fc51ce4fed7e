/** @module Reads a caption-less video's transcript from its audio: format, download, pieces, transcription. */
import { AppError } from "../../domain/errors.ts";
import type { Cue, Transcript } from "../../domain/transcript.ts";
import type { AudioFormat } from "../youtube/audio-formats.ts";
import type { ClientHealth } from "../youtube/client-health.ts";
import type { InnertubeClient } from "../youtube/innertube-clients.ts";
import type { PlayerInfo } from "../youtube/player-response.ts";
import type { SpeechInput, SpeechReader } from "../youtube/speech-fallback.ts";
import { audioUnreadable } from "./audio-download.ts";
import { type AudioSources, audioSources, downloadFirst } from "./audio-sources.ts";
import type { AudioPiece } from "./audio-pieces.ts";
import { type SpeechObserver, transcribePieces } from "./piece-transcription.ts";
import type { SpeechBudget } from "./speech-budget.ts";
import type { Transcriber } from "./groq-transcriber.ts";
import { createTranscriptionSlots } from "./transcription-slots.ts";

export interface SpeechReaderOptions {
  transcribe: Transcriber;
  budget: SpeechBudget;
  /** Asked first, in order, on the video's transport for a direct audio URL that needs no proof-of-origin token. */
  audioClients: readonly InnertubeClient[];
  /** The reader reports here what each audio client's player call answered (the per-client gauge). */
  health?: ClientHealth;
  /** `STT_MAX_MINUTES`: longer videos are refused before any download. */
  maxMinutes: number;
  /** `STT_CHUNK_BYTES`: most bytes of one upload. */
  chunkBytes: number;
  /** Uploads in flight at once for one video (4 by default). */
  concurrency?: number;
  /**
   * Videos downloaded and transcribed at once in this process (4 by default; each holds its audio in memory); others
   * wait their turn until their deadline.
   */
  videosAtOnce?: number;
  /** Deadline of a fetch that brings none (ms from now; 120 s by default). */
  defaultTimeoutMs?: number;
  /** Bytes of one download range (10 MiB by default; tests make it small). */
  rangeBytes?: number;
  now?: () => number;
  observe?: SpeechObserver;
}

/**
 * Failures of the speech-to-text service (or its budget), as opposed to YouTube's: see {@linkcode
 * isSpeechServiceFailure}.
 */
const serviceFailures = new WeakSet<object>();

/**
 * @returns whether `error` came from transcribing the audio, not from YouTube: the provider's
 *   429 is `upstream_blocked` too, but it says nothing about the egress route the audio came by
 */
export function isSpeechServiceFailure(error: unknown): boolean {
  return typeof error === "object" && error !== null && serviceFailures.has(error);
}

/** The most bytes an audio download may have: two hours at YouTube's highest audio bitrate (~160 kb/s) and some. */
const MAX_AUDIO_BYTES = 256 * 1024 * 1024;

/** @returns the reader the InnerTube source falls back to when a video has no captions */
export function createSpeechReader(options: SpeechReaderOptions): SpeechReader {
  const now = options.now ?? Date.now;
  const slots = createTranscriptionSlots(options.videosAtOnce ?? 4, now);
  const maxSeconds = options.maxMinutes * 60;
  const tooLong = (videoId: string, seconds: number) =>
    new AppError(
      "transcript_unavailable",
      `Video ${videoId} has no captions and is ${
        Math.ceil(seconds / 60)
      } minutes long; its audio is transcribed only up to ${options.maxMinutes} minutes (STT_MAX_MINUTES)`,
    );

  return {
    async read(input) {
      const { videoId, info, query } = input;
      const deadline = query.deadline ?? now() + (options.defaultTimeoutMs ?? 120_000);
      if (info.lengthSeconds !== undefined && info.lengthSeconds > maxSeconds) {
        throw tooLong(videoId, info.lengthSeconds);
      }
      const sources = audioSources({ ...input, ...options, signal: query.signal });
      const first = await sources.next();
      if (first.done) throw audioUnreadable(videoId, noDirectAudio(info));
      const { format } = first.value;
      const expected = info.lengthSeconds ?? format.durationSeconds ?? estimatedSeconds(format) ?? maxSeconds;
      if (expected > maxSeconds) throw tooLong(videoId, expected);
      // The caller's quota holds the video's minutes before any audio is fetched or transcribed.
      await query.beforeSpeech?.(expected);
      const release = await slots.take(deadline, query.signal);
      try {
        return await transcribe(input, { first: first.value, rest: sources }, expected, deadline);
      } finally {
        release();
      }
    },
  };

  /** Inside a slot: the budget's seconds, the download, the pieces, their transcription. */
  async function transcribe(
    input: SpeechInput,
    sources: AudioSources,
    expected: number,
    deadline: number,
  ): Promise<Transcript> {
    const { videoId, info, query } = input;
    await options.budget.takeSeconds(expected, deadline, query.signal);
    const started = now();
    let cut: { pieces: AudioPiece[]; durationSeconds: number };
    try {
      const { bytes, format } = await downloadFirst(sources, {
        ...input,
        maxBytes: MAX_AUDIO_BYTES,
        rangeBytes: options.rangeBytes,
        signal: input.query.signal,
      });
      // Loaded with the first caption-less video: Mediabunny costs a service that never meets one nothing at start-up.
      const { AudioFormatError, cutAudio } = await import("./audio-pieces.ts");
      cut = await cutAudio(bytes, options.chunkBytes).catch((error) => {
        throw error instanceof AudioFormatError
          ? audioUnreadable(videoId, `its ${format.mimeType.split(";")[0]} could not be read`)
          : error;
      });
      if (cut.durationSeconds > maxSeconds) throw tooLong(videoId, cut.durationSeconds);
      // A length the player response understated is paid for before any upload.
      if (cut.durationSeconds > expected + 1) {
        await options.budget.takeSeconds(cut.durationSeconds - expected, deadline, query.signal);
      }
    } catch (error) {
      await options.budget.giveSeconds(expected);
      throw error;
    }
    const heard = await transcribePieces(cut.pieces, {
      ...options,
      videoId,
      deadline,
      signal: query.signal,
      onTranscribing: query.onTranscribing,
      onPieceTranscribed: query.onAudioTranscribed,
    }).catch((error: unknown) => {
      if (typeof error === "object" && error !== null) serviceFailures.add(error);
      throw error;
    });
    // Audio that holds no speech gives a transcript without cues (see `heardNothing`): an outcome the uploader
    // controls, cached as any transcript, so the same silent video is not transcribed again on every request.
    const cues: Cue[] = heard.segments.map((s) => ({
      start: round(s.start),
      duration: round(Math.max(0, s.end - s.start)),
      text: s.text,
    }));
    const language = heard.language ?? info.tracks[0]?.languageCode ?? "en";
    return {
      videoId,
      language,
      isGenerated: true,
      isTranslated: false,
      durationSeconds: info.lengthSeconds ?? round(cut.durationSeconds),
      title: info.title,
      videoLanguage: language,
      cues,
      speech: {
        audioSeconds: round(cut.durationSeconds),
        uploads: cut.pieces.length,
        sttMs: Math.round(now() - started),
      },
    } satisfies Transcript;
  }
}

function noDirectAudio(info: PlayerInfo): string {
  return (info.audioFormats ?? []).length > 0
    ? "no audio format has a direct URL"
    : "YouTube lists no audio-only format";
}

/** @returns the length a format's size and bitrate imply, when both are stated */
function estimatedSeconds(format: AudioFormat): number | undefined {
  return format.contentLength !== undefined && format.bitrate < Number.MAX_SAFE_INTEGER
    ? (format.contentLength * 8) / format.bitrate
    : undefined;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
