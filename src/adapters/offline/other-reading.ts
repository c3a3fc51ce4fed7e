/** @module Chooses and fetches a second reading of a video in another language for the offline engine. */
import type { TranscriptSource } from "../../domain/ports.ts";
import { questionLanguage } from "../../domain/reading/question-language.ts";
import type { Transcript } from "../../domain/transcript.ts";

/** A second reading of the video, and what it cost. */
export interface OtherReading {
  /** The track read, when one in another language than the quoted one could be had. */
  transcript?: Transcript;
  /** Requests sent to YouTube for it: 0 when cached or shared, 1 (its caption track) as a rule. */
  youtubeRequests: number;
}

/**
 * The language of the one extra reading worth fetching for a question: the
 * question's own language, when it can be told and the quoted track is in
 * another (its words are then found as they were written); else the
 * language the video is spoken in, when the quoted track is a translation
 * or another track. None when the quoted track is already both. The
 * response language is never asked for again: the quoted track is what
 * YouTube had for it.
 *
 * @param prompt the question
 * @param quoted the transcript fetched for the response language
 * @param requested the response language
 * @returns a language code, or undefined when no other reading would help
 */
export function otherReadingLanguage(prompt: string, quoted: Transcript, requested: string): string | undefined {
  const reading = primary(quoted.language);
  const asked = questionLanguage(prompt);
  if (asked && asked !== reading && asked !== requested) return asked;
  const spoken = quoted.videoLanguage ? primary(quoted.videoLanguage) : undefined;
  return spoken && spoken !== reading ? spoken : undefined;
}

/**
 * Fetches the other reading through `source` (the cached transcript source,
 * so it is cached and shared like any transcript), reusing the video's
 * player response just read, so it costs one caption request at most. A
 * failure only loses the second reading: the answer is still given from the
 * first.
 *
 * @param source where transcripts come from
 * @param ask the question, the transcript fetched for the response language, the response language, the request's abort
 *    signal
 * @returns the other reading, if any, and the YouTube requests it took
 */
export async function fetchOtherReading(
  source: TranscriptSource | undefined,
  ask: { prompt: string; transcript: Transcript; language: string; signal?: AbortSignal },
): Promise<OtherReading> {
  const language = otherReadingLanguage(ask.prompt, ask.transcript, ask.language);
  if (!source || !language) return { youtubeRequests: 0 };
  return fetchReading(source, ask.transcript, language, ask.signal);
}

/**
 * The video read in `language` (YouTube's translation into it where it has no such track), through `source`, reusing
 * the player response just read for `quoted`; none when YouTube has only the quoted track's language, or fails.
 *
 * @returns the reading, if any, and the YouTube requests it took
 */
export async function fetchReading(
  source: TranscriptSource,
  quoted: Transcript,
  language: string,
  signal?: AbortSignal,
): Promise<OtherReading> {
  let youtubeRequests = 0;
  try {
    const transcript = await source.fetch(quoted.videoId, {
      languages: [language],
      translate: true,
      signal,
      rereading: true,
      observer: { request: () => (youtubeRequests += 1) },
    });
    return primary(transcript.language) === primary(quoted.language)
      ? { youtubeRequests }
      : { transcript, youtubeRequests };
  } catch {
    return { youtubeRequests };
  }
}

/** @returns the primary subtag of a language code, lower case: `en` for `en-US` */
export function primary(code: string): string {
  return code.toLowerCase().split(/[-_]/)[0] ?? code;
}
