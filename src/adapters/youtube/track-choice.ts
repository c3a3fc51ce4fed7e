/** @module Picks the caption track to fetch, and tells the language a video is spoken in. */
import type { CaptionTrack, PlayerInfo } from "./player-response.ts";

/** The track to fetch, and the language to translate it into, if any. */
export interface TrackChoice {
  track: CaptionTrack;
  translateTo?: string;
}

/**
 * Picks a caption track: the wanted languages in order, then the language of
 * the video's default track, then any; manual before auto-generated at each
 * step. `en-US` matches `en`. When no track is in the first wanted language
 * and `translate` is set, YouTube's translation (`tlang`) of the chosen track
 * is asked for, if the track allows it and YouTube lists that language;
 * otherwise the original language is used as it is.
 *
 * @param info the player response's tracks
 * @param languages wanted languages, best first
 * @param translate whether a translation into `languages[0]` may be asked for
 * @returns the choice, or undefined when the video has no tracks
 */
export function chooseTrack(
  info: PlayerInfo,
  languages: readonly string[],
  translate: boolean,
): TrackChoice | undefined {
  if (info.tracks.length === 0) return undefined;
  for (const language of languages) {
    const track = inLanguage(info.tracks, language);
    if (track) return { track };
  }
  const named = info.defaultTrackIndex !== undefined ? info.tracks[info.defaultTrackIndex] : undefined;
  const fallback = (named && inLanguage(info.tracks, named.languageCode)) ?? bestOf(info.tracks)!;
  const wanted = languages[0];
  if (translate && wanted && fallback.isTranslatable && canTranslateTo(info, wanted)) {
    return { track: fallback, translateTo: wanted };
  }
  return { track: fallback };
}

function inLanguage(tracks: readonly CaptionTrack[], language: string): CaptionTrack | undefined {
  return bestOf(tracks.filter((t) => sameLanguage(t.languageCode, language)));
}

function bestOf(tracks: readonly CaptionTrack[]): CaptionTrack | undefined {
  return tracks.find((t) => !t.isGenerated) ?? tracks[0];
}

/**
 * `en-US` and `en` are the same language for choosing a track.
 *
 * @param code a track's language code
 * @param wanted a wanted language code
 * @returns whether the primary subtags are equal, ignoring case
 */
export function sameLanguage(code: string, wanted: string): boolean {
  return code.toLowerCase().split(/[-_]/)[0] === wanted.toLowerCase().split(/[-_]/)[0];
}

function canTranslateTo(info: PlayerInfo, language: string): boolean {
  return info.translationLanguages.some((code) => sameLanguage(code, language));
}

/**
 * The language a video is spoken in, as its tracks tell: YouTube's automatic
 * speech recognition track is in it, else the track YouTube shows by
 * default usually is.
 *
 * @param info the player response's tracks
 * @returns a track's language code, or undefined when no track says
 */
export function spokenLanguage(info: PlayerInfo): string | undefined {
  const recognised = info.tracks.find((t) => t.isGenerated);
  if (recognised) return recognised.languageCode;
  const named = info.defaultTrackIndex !== undefined ? info.tracks[info.defaultTrackIndex] : undefined;
  return named?.languageCode ?? (info.tracks.length === 1 ? info.tracks[0]!.languageCode : undefined);
}
