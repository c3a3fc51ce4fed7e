import type { CaptionTrack, PlayerInfo } from "./player-response.ts";

/** The track to fetch, and the language to translate it into, if any. */
export interface TrackChoice {
  track: CaptionTrack;
  translateTo?: string;
}

/**
 * Picks a caption track: the wanted languages in order, then the video's
 * default track, then any; manual before auto-generated at each step.
 * `en-US` matches `en`. When no track is in the first wanted language and
 * `translate` is set, YouTube's translation of the chosen track is asked for.
 *
 * @returns the choice, or undefined when the video has no tracks
 */
export function chooseTrack(info: PlayerInfo, languages: readonly string[], translate: boolean): TrackChoice | undefined {
  if (info.tracks.length === 0) return undefined;
  for (const language of languages) {
    const track = bestOf(info.tracks.filter((t) => sameLanguage(t.languageCode, language)));
    if (track) return { track };
  }
  const fallback = (info.defaultTrackIndex !== undefined ? info.tracks[info.defaultTrackIndex] : undefined) ?? bestOf(info.tracks)!;
  const wanted = languages[0];
  if (translate && wanted && fallback.isTranslatable && canTranslateTo(info, wanted)) {
    return { track: fallback, translateTo: wanted };
  }
  return { track: fallback };
}

function bestOf(tracks: CaptionTrack[]): CaptionTrack | undefined {
  return tracks.find((t) => !t.isGenerated) ?? tracks[0];
}

/** `en-US` and `en` are the same language for choosing a track. */
export function sameLanguage(code: string, wanted: string): boolean {
  return code.toLowerCase().split("-")[0] === wanted.toLowerCase().split("-")[0];
}

function canTranslateTo(info: PlayerInfo, language: string): boolean {
  return info.translationLanguages.length === 0 || info.translationLanguages.some((code) => sameLanguage(code, language));
}
