/** @module Reads playability, length and caption tracks from an InnerTube player response. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { AppError } from "../../domain/errors.ts";
import { type AudioFormat, readAudioFormats } from "./audio-formats.ts";
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

const BOT_CHECK = /confirm you(’|')re not a bot|unusual traffic/i;
const AGE_GATE = /inappropriate for some users|confirm your age|age-restricted/i;

/**
 * Reads playability, length and caption tracks from an InnerTube player
 * response, turning every refusal into the contract's error.
 *
 * @throws {AppError} video_unavailable, video_age_restricted, video_unplayable,
 *   upstream_blocked or upstream_error
 */
export function readPlayerResponse(json: unknown, videoId: string): PlayerInfo {
  if (typeof json !== "object" || json === null) throw unreadable("a player response", "not a JSON object");
  const data = json as Record<string, any>;
  assertPlayable(data.playabilityStatus, videoId);
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

function assertPlayable(status: any, videoId: string): void {
  const state = status?.status;
  if (state === "OK") return;
  const reason = typeof status?.reason === "string" ? status.reason : "";
  if (BOT_CHECK.test(reason)) {
    throw new AppError("upstream_blocked", "YouTube refused this server with a bot check; try again later", {
      retryAfterSeconds: 60,
    });
  }
  if (state === "LOGIN_REQUIRED" && AGE_GATE.test(reason)) {
    throw new AppError(
      "video_age_restricted",
      `Video ${videoId} is age-restricted; YouTube only shows it to signed-in accounts, so its transcript cannot ` +
        `be read`,
    );
  }
  if (state === "ERROR" || /unavailable|does not exist|removed|private/i.test(reason)) {
    throw new AppError(
      "video_unavailable",
      `Video ${videoId} is unavailable on YouTube (it does not exist, was removed, or is private)`,
    );
  }
  if (typeof state === "string") {
    const sub = subreasons(status);
    const told = `${clean(reason) || clean(state)}${sub ? ` (${sub})` : ""}`;
    throw new AppError("video_unplayable", `YouTube will not play video ${videoId}: ${told}`);
  }
  throw unreadable("a player response", "no playabilityStatus.status");
}

/** YouTube's sub-reason runs (e.g. "This helps protect our community. " + "Learn more"), as one line. */
function subreasons(status: any): string {
  const runs = status?.errorScreen?.playerErrorMessageRenderer?.subreason?.runs;
  return Array.isArray(runs) ? clean(runs.map((r: any) => String(r?.text ?? "")).join(" ")) : "";
}

/** YouTube's own words may reach callers, so they are bounded and kept to one plain line. */
function clean(text: string): string {
  // deno-lint-ignore no-control-regex -- control characters are what is cleaned out
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 200);
}

/** @returns the video id a player response is about, if it names one */
export function playerVideoId(json: unknown): string | undefined {
  const id = (json as { videoDetails?: { videoId?: unknown } } | null)?.videoDetails?.videoId;
  return typeof id === "string" ? id : undefined;
}
