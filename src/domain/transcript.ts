/** @module The transcript model: cues, transcript facts, fetch options, the work observer, timestamp formatting. */
import type { Language } from "./chat-request.ts";
import { AppError } from "./errors.ts";

/** One caption line; times in seconds. */
export interface Cue {
  start: number;
  duration: number;
  text: string;
}

/** A video's transcript with the facts the answer needs. */
export interface Transcript {
  videoId: string;
  /** Language code of the track used, e.g. `en` (YouTube's code, region kept: `en-US`). */
  language: string;
  /** Whether the track was YouTube's automatic speech recognition. */
  isGenerated: boolean;
  /** Whether YouTube translated the track (`tlang`) into `language`. */
  isTranslated: boolean;
  /** Length from YouTube's metadata; undefined when YouTube does not know it (live). */
  durationSeconds?: number;
  title?: string;
  /**
   * Language the video is spoken in, as its tracks tell (its auto-generated
   * track's, else its default track's); undefined when they do not say.
   */
  videoLanguage?: string;
  cues: Cue[];
  /** Set when the transcript was made from the video's audio (speech-to-text) because it has no captions. */
  speech?: SpeechFacts;
  /** Set when the track was longer than the transcript cap and only its beginning is kept (see `capTranscript`). */
  cut?: TranscriptCut;
}

/** What the transcript cap left out of a track. */
export interface TranscriptCut {
  /** Cues the track had. */
  cues: number;
  /** Characters of text the track had. */
  characters: number;
  /** Where the kept part ends, seconds. */
  keptUntilSeconds: number;
}

/** How a speech transcript was made, for logs and Server-Timing. */
export interface SpeechFacts {
  /** Seconds of audio transcribed. */
  audioSeconds: number;
  /** Pieces uploaded. */
  uploads: number;
  /** Time from the audio's download to the last piece's transcript, in ms. */
  sttMs: number;
}

/** Options of a transcript fetch. */
export interface TranscriptQuery {
  /**
   * Languages wanted, best first (response languages, or a track's own code
   * such as `de`); the source falls back to the video's default track.
   */
  languages: readonly (Language | string)[];
  /** Whether a translation into `languages[0]` (the source's own) is wanted when no track matches. */
  translate: boolean;
  signal?: AbortSignal;
  /** When the caller stops waiting (ms since the epoch): a blocked fetch is not tried again after it. */
  deadline?: number;
  /**
   * Another reading of a video read moments ago (in another language): the source may reuse what it learnt about the
   * video then, so that only the transcript itself is requested.
   */
  rereading?: boolean;
  /** Hears what the source did upstream for this fetch; a fetch served from the cache, or shared, reports nothing. */
  observer?: WorkObserver;
  /**
   * The speech reader calls this as a transcription progresses: pieces transcribed out of a total (the reader refuses
   * at once a transcription that cannot end by `deadline`).
   */
  onTranscribing?: (done: number, total: number) => void;
  /**
   * Awaited before a speech transcription fetches any audio, with the video's expected length in seconds: the caller
   * holds its quota's minutes (it throws the caller's refusal, and nothing is transcribed).
   */
  beforeSpeech?: (seconds: number) => Promise<void>;
  /**
   * The speech reader calls this as each piece of audio is transcribed, with its seconds: charged at once to the key
   * admitted by `beforeSpeech`, whatever becomes of the rest.
   */
  onAudioTranscribed?: (seconds: number) => void;
}

/**
 * Hears what the adapters did upstream for one caller's work, for that caller's log line. The domain hands it to the
 * work the caller runs and never reads what it hears; work the caller joins, or finds cached, reports nothing to it. An
 * adapter calls only the hooks the observer has (unbound).
 */
export interface WorkObserver {
  /** A try left by `route` (`direct` or `host:port`) after `retries` tries that met a block. */
  route?: (route: string, retries: number) => void;
  /** At a try's end: the client identity that served it (none: none did), and what each one asked answered. */
  clients?: (served: string | undefined, answers: Readonly<Record<string, string>>) => void;
  /** One request sent upstream. */
  request?: () => void;
  /** Requests the answer's writer sent upstream itself, beyond the transcript it was given (0: none). */
  writerRequests?: (count: number) => void;
}

/** @returns end of the last cue in seconds, or undefined for an empty transcript */
export function lastCueEnd(cues: readonly Cue[]): number | undefined {
  const last = cues.at(-1);
  return last ? last.start + last.duration : undefined;
}

/** @returns the characters of the cues' text: what a charge by text counts (see `chargedMinutes`) */
export function textCharacters(cues: readonly { text: string }[]): number {
  let characters = 0;
  for (const cue of cues) characters += cue.text.length;
  return characters;
}

/**
 * Whether a speech transcript heard nothing: the caption-less video's audio holds no speech. Such a transcript has
 * no cues; it is an outcome the uploader controls, cached as any transcript, and read as {@link nothingHeard}.
 */
export function heardNothing(transcript: Transcript): boolean {
  return transcript.speech !== undefined && transcript.cues.length === 0;
}

/** The refusal of a transcript that {@link heardNothing}. */
export function nothingHeard(videoId: string): AppError {
  return new AppError(
    "transcript_unavailable",
    `Video ${videoId} has no captions and no speech was heard in its audio, so there is no transcript to answer from`,
  );
}

/** Formats seconds as a transcript timestamp: `12:34` or `1:02:03`. */
export function formatTimestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
