/** @module Reads playability, length and caption tracks from an InnerTube player response. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { type AudioFormat, readAudioFormats } from "./audio-formats.ts";
import { answeredVideoId, assertPlayable } from "./playability.ts";
import { unreadable } from "./unreadable.ts";

/** A caption track as the player response lists it. */
export interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  isGenerated: boolean;
  isTranslatable: boolean;
}

/** What the service needs from a player response. */
export interface PlayerInfo {
  title?: string;
  lengthSeconds?: number;
  tracks: CaptionTrack[];
  /** Index into `tracks` of the video's default track, when YouTube names one. */
  defaultTrackIndex?: number;
  translationLanguages: string[];
  /** Audio-only formats, lowest bitrate first (speech-to-text of a caption-less video). */
  audioFormats?: AudioFormat[];
}

/**
 * Reads playability, length and caption tracks from an InnerTube player
 * response, turning every refusal into the contract's error.
 *
 * @throws {AppError} video_unavailable, video_age_restricted, video_unplayable,
 *   upstream_blocked or upstream_error (a retired client among them: see playability.ts)
 */
export function readPlayerResponse(json: unknown, videoId: string): PlayerInfo {
  if (typeof json !== "object" || json === null) throw unreadable("a player response", "not a JSON object");
  const data = json as Record<string, any>;
  assertPlayable(data, videoId);
  const details = data.videoDetails ?? {};
  const renderer = data.captions?.playerCaptionsTracklistRenderer;
  const tracks: CaptionTrack[] = Array.isArray(renderer?.captionTracks)
    ? renderer.captionTracks.filter((t: any) => typeof t?.baseUrl === "string" && typeof t?.languageCode === "string")
      .map(toTrack)
    : [];
  const length = Number(details.lengthSeconds);
  return {
    title: typeof details.title === "string" ? details.title : undefined,
    lengthSeconds: Number.isFinite(length) && length > 0 ? length : undefined,
    tracks,
    defaultTrackIndex: defaultTrack(renderer),
    translationLanguages: Array.isArray(renderer?.translationLanguages)
      ? renderer.translationLanguages.map((l: any) => l?.languageCode).filter((c: unknown) => typeof c === "string")
      : [],
    audioFormats: readAudioFormats(data.streamingData),
  };
}

function toTrack(track: any): CaptionTrack {
  return {
    baseUrl: track.baseUrl,
    languageCode: track.languageCode,
    isGenerated: track.kind === "asr",
    isTranslatable: track.isTranslatable === true,
  };
}

function defaultTrack(renderer: any): number | undefined {
  const index = renderer?.audioTracks?.[0]?.defaultCaptionTrackIndex;
  return Number.isInteger(index) ? index : undefined;
}

/** @returns the video id a player response is about, if it names one */
export const playerVideoId: (json: unknown) => string | undefined = answeredVideoId;
