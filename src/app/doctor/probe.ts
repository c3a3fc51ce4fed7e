/** @module Asks YouTube about one video as one client on one route: player answer, caption tracks, captions, audio. */
import { lowestDirectAudio } from "../../adapters/youtube/audio-formats.ts";
import { fetchCaptions, isGated } from "../../adapters/youtube/caption-fetch.ts";
import { type ClientAnswer, clientAnswer } from "../../adapters/youtube/client-health.ts";
import { BROWSER_USER_AGENT, type InnertubeClient } from "../../adapters/youtube/innertube-clients.ts";
import { onOrigin } from "../../adapters/youtube/origin.ts";
import { askPlayer } from "../../adapters/youtube/player-request.ts";
import type { PlayerInfo } from "../../adapters/youtube/player-response.ts";
import { chooseTrack, type TrackChoice } from "../../adapters/youtube/track-choice.ts";
import { httpStatusOf, type YoutubeTransport } from "../../adapters/youtube/transport.ts";
import { isAppError } from "../../domain/errors.ts";

/** How the player call answered: a client answer, or `gated` when its caption tracks need a proof-of-origin token. */
export type PlayerVerdict = ClientAnswer | "gated";

/** What one client got on one route. */
export interface Probe {
  player: PlayerVerdict;
  /** Caption tracks listed; null when the player call failed. */
  tracks: number | null;
  /** `ok (N cues)`, `none` (no track), `empty`, `blocked`, `HTTP 403`, ... or `-` when not asked. */
  captions: string;
  /** `ok`, `HTTP 403`, `no direct URL`, `none listed`, ... or `-` when not asked. */
  audio: string;
}

/** One row of the YouTube check: a route, a client and what it got. */
export interface YoutubeRow extends Probe {
  route: string;
  client: string;
  /** Which setting lists the client: `captions` (`YOUTUBE_CLIENTS`) or `audio` (`YOUTUBE_AUDIO_CLIENTS`). */
  use: "captions" | "audio";
}

/** Most bytes read of an audio URL: enough to see that it answers. */
const AUDIO_PROBE_BYTES = 1024;

/**
 * @param at the route's transport, the video, the client, and the configured origin
 * @returns what each step answered; never throws
 */
export async function probeClient(
  at: { transport: YoutubeTransport; videoId: string; client: InnertubeClient; baseUrl: string },
): Promise<Probe> {
  let info: PlayerInfo;
  try {
    info = await askPlayer(at.transport, at.videoId, { client: at.client });
  } catch (error) {
    return { player: clientAnswer(error), tracks: null, captions: "-", audio: "-" };
  }
  const choice = chooseTrack(info, ["en"], false);
  return {
    player: choice && isGated(choice, at.baseUrl) ? "gated" : "ok",
    tracks: info.tracks.length,
    captions: choice ? await probeCaptions(at, choice) : "none",
    audio: await probeAudio(at, info),
  };
}

async function probeCaptions(
  at: { transport: YoutubeTransport; videoId: string; baseUrl: string },
  choice: TrackChoice,
): Promise<string> {
  try {
    const { cues } = await fetchCaptions({ ...at, choice });
    return `ok (${cues.length} cues)`;
  } catch (error) {
    return failure(error);
  }
}

async function probeAudio(
  at: { transport: YoutubeTransport; client: InnertubeClient },
  info: PlayerInfo,
): Promise<string> {
  const format = lowestDirectAudio(info.audioFormats ?? []);
  if (!format) return (info.audioFormats ?? []).length > 0 ? "no direct URL" : "none listed";
  const url = onOrigin(format.url ?? "", "http://audio.invalid");
  const headers = {
    range: `bytes=0-${AUDIO_PROBE_BYTES - 1}`,
    "user-agent": at.client.userAgent ?? BROWSER_USER_AGENT,
  };
  try {
    await at.transport.bytes(url.pathname + url.search, { headers }, 1024 * 1024);
    return "ok";
  } catch (error) {
    return failure(error);
  }
}

/** @returns a failure in a word or two: never YouTube's body, never a proxy's address or credentials */
function failure(error: unknown): string {
  if (isAppError(error, "upstream_blocked")) return "blocked";
  if (isAppError(error, "upstream_timeout")) return "timeout";
  const status = httpStatusOf(error);
  if (status !== undefined) return `HTTP ${status}`;
  if (isAppError(error) && /empty caption track/.test(error.message)) return "empty";
  return "error";
}
