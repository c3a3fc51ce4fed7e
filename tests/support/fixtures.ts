/** @module Access to the captured YouTube fixtures and the video ids the fake YouTube serves. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Folder of the YouTube responses, captured and written from public reports (`tests/fixtures/youtube/README.md`). */
export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/youtube/", import.meta.url));

/** @returns the text of a fixture file of `FIXTURES_DIR` */
export function fixture(name: string): string {
  return readFileSync(FIXTURES_DIR + name, "utf8");
}

/**
 * Video ids served by the fake YouTube and the fixture each one replays. The
 * first five are the real ids of the captures; the others are ids chosen
 * here for captures that carry none or name another (the fake answers about the id asked,
 * as YouTube does, except for `otherVideo`: the answer about another video YouTube gives a blocked address).
 */
export const VIDEOS = {
  normal: { id: "GJLlxj_dtq8", player: "youtube.innertube.json" },
  twoTracks: { id: "F1xioXWb8CY", player: "youtube_ww1_nl_en.innertube.json" },
  captionsDisabled: { id: "dsMFmonKDD4", player: "youtube_transcripts_disabled.innertube.json" },
  pastLiveNoCaptions: { id: "Fjg5lYqvzUs", player: "youtube_transcripts_disabled2.innertube.json" },
  ageRestricted: { id: "Njp5uhTorCo", player: "youtube_age_restricted.innertube.json" },
  botCheck: { id: "botCheck_01", player: "youtube_request_blocked.innertube.json" },
  unavailable: { id: "unavailab01", player: "youtube_video_unavailable.innertube.json" },
  unplayable: { id: "unplayable1", player: "youtube_unplayable.innertube.json" },
  poToken: { id: "poTokenReq1", player: "youtube_po_token_required.innertube.json" },
  alteredAgent: { id: "altAgent_01", player: "youtube_altered_user_agent.innertube.json" },
  captcha: { id: "captcha0001", player: "player_captcha.innertube.json" },
  tryAgainLater: { id: "tryLater001", player: "player_try_again_later.innertube.json" },
  otherVideo: { id: "otherVideo1", player: "youtube.innertube.json" },
  ageVerification: { id: "ageVerify01", player: "player_age_verification.innertube.json" },
  xpvGated: { id: "xpvGated001", player: "player_caption_xpv.innertube.json" },
} as const;

export type VideoName = keyof typeof VIDEOS;

export const watchUrl = (name: VideoName): string => `https://www.youtube.com/watch?v=${VIDEOS[name].id}`;
