import { AppError, isAppError } from "../../domain/errors.ts";
import type { TranscriptSource } from "../../domain/ports.ts";
import type { Cue, Transcript } from "../../domain/transcript.ts";
import { onOrigin } from "./origin.ts";
import { requestPlayer, readPlayerBody, type InnertubeClient } from "./player-request.ts";
import { playerVideoId, readPlayerResponse, type PlayerInfo } from "./player-response.ts";
import { parseTimedText } from "./timedtext.ts";
import { chooseTrack, type TrackChoice } from "./track-choice.ts";
import { createYoutubeTransport } from "./transport.ts";
import { isUnreadable, unreadable } from "./unreadable.ts";
import { fetchWatchPage } from "./watch-page.ts";
import { observeCall, type YoutubeObserver } from "./observed-call.ts";

export type { InnertubeClient } from "./player-request.ts";

export interface InnertubeOptions {
  /** Origin of every YouTube request (`YOUTUBE_BASE_URL`). */
  baseUrl: string;
  /** Client identities, tried in order (config `YOUTUBE_CLIENTS`). */
  clients: readonly InnertubeClient[];
  /** Time limit of each request. */
  timeoutMs: number;
  /** Proxy-aware on the server; defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Told how each player, watch-page and caption call ended (metrics). */
  observe?: YoutubeObserver;
}

/** A player response read, plus the consent cookie that got it, if one was needed. */
interface Session {
  info: PlayerInfo;
  cookie?: string;
}

const DEFAULT_CLIENTS: InnertubeClient[] = [{ name: "ANDROID", version: "20.10.38" }];

/**
 * Reads transcripts through YouTube's InnerTube player endpoint: one request
 * for playability, length and caption tracks, one for the chosen track in the
 * classic caption format (times in seconds).
 *
 * The flow, when YouTube refuses:
 * 1. `POST /youtubei/v1/player` without a key, with each configured client in
 *    turn, moving on only when the answer is one a different client may change
 *    (unparsable, bot check, other playability refusal); never for an
 *    unavailable or age-restricted video, nor for HTTP errors or timeouts.
 * 2. When every client met a bot check or an unparsable answer (not a plain
 *    refusal, which the watch page would repeat), `GET /watch?v=ID`: reCAPTCHA
 *    → 503; EU consent wall → once more with `CONSENT=YES+<v>`; the page's own
 *    player response settles unavailable and age-restricted videos; its
 *    `INNERTUBE_API_KEY` makes one keyed player call with the first client.
 *    Its WEB caption URLs are not used: they need a PoToken (`exp=xpe`).
 *
 * @param options origin, clients, time limit and fetch
 * @returns the transcript source
 */
export function createInnertubeTranscriptSource(options: InnertubeOptions): TranscriptSource {
  const transport = createYoutubeTransport(options);
  const clients = options.clients.length > 0 ? options.clients : DEFAULT_CLIENTS;

  /** @returns the first client's readable answer, or the last refusal another client might have changed */
  async function keyless(videoId: string, signal?: AbortSignal): Promise<PlayerInfo | AppError> {
    let refusal: AppError | undefined;
    for (const client of clients) {
      // Only an answer another client may read differently moves on; the request's own errors (429, timeout) end here.
      let answered = false;
      try {
        return await observeCall(options.observe, "player", async () => {
          const text = await requestPlayer(transport, videoId, { client, signal });
          answered = true;
          return readPlayerBody(text, videoId);
        });
      } catch (error) {
        if (!answered || !anotherClientMayHelp(error)) throw error;
        refusal = error;
      }
    }
    return refusal!;
  }

  async function viaWatchPage(videoId: string, refusal: AppError, signal?: AbortSignal): Promise<Session> {
    const page = await observeCall(options.observe, "watch_page", () => fetchWatchPage(transport, videoId, signal));
    if (playerVideoId(page.playerResponse) === videoId) assertNotGone(page.playerResponse, videoId);
    if (!page.apiKey) throw refusal;
    const keyed = { client: clients[0]!, apiKey: page.apiKey, cookie: page.cookie, signal };
    const info = await observeCall(options.observe, "player", async () => readPlayerBody(await requestPlayer(transport, videoId, keyed), videoId));
    return { info, cookie: page.cookie };
  }

  async function session(videoId: string, signal?: AbortSignal): Promise<Session> {
    const first = await keyless(videoId, signal);
    if (!(first instanceof AppError)) return { info: first };
    if (isAppError(first, "video_unplayable")) throw first;
    return await viaWatchPage(videoId, first, signal);
  }

  async function captions(videoId: string, choice: TrackChoice, cookie?: string, signal?: AbortSignal): Promise<Cue[]> {
    // onOrigin first: it refuses a baseUrl that is not a URL with upstream_error (was a 500).
    const url = onOrigin(choice.track.baseUrl, options.baseUrl);
    if (url.searchParams.get("exp") === "xpe") {
      throw new AppError("upstream_error", `YouTube requires a proof-of-origin token for the captions of video ${videoId}; try again later`);
    }
    url.searchParams.delete("fmt");
    if (choice.translateTo) url.searchParams.set("tlang", choice.translateTo);
    return await observeCall(options.observe, "caption", async () => {
      const body = await transport.text(url.pathname + url.search, { signal, headers: cookie ? { cookie } : {} });
      return readCaptions(body, videoId);
    });
  }

  return {
    async fetch(videoId, query) {
      const { info, cookie } = await session(videoId, query.signal);
      const choice = chooseTrack(info, query.languages, query.translate);
      if (!choice) throw new AppError("transcript_unavailable", `Video ${videoId} has no captions, so there is no transcript to answer from`);
      const cues = await captions(videoId, choice, cookie, query.signal);
      return {
        videoId,
        language: choice.translateTo ?? choice.track.languageCode,
        isGenerated: choice.track.isGenerated,
        isTranslated: choice.translateTo !== undefined,
        durationSeconds: info.lengthSeconds,
        title: info.title,
        cues,
      } satisfies Transcript;
    },
  };
}

function readCaptions(body: string, videoId: string): Cue[] {
  const cues = parseTimedText(body);
  if (cues === undefined && body.trim() !== "") throw unreadable("a caption track", "not a whole timedtext document");
  if (!cues || cues.length === 0) {
    throw new AppError("upstream_error", `YouTube sent an empty caption track for video ${videoId}; try again later`);
  }
  return cues;
}

function anotherClientMayHelp(error: unknown): error is AppError {
  return isUnreadable(error) || isAppError(error, "upstream_blocked") || isAppError(error, "video_unplayable");
}

/** Lets the watch page's own verdict stand when it says the video is gone or age-restricted. */
function assertNotGone(playerResponse: unknown, videoId: string): void {
  try {
    readPlayerResponse(playerResponse, videoId);
  } catch (error) {
    if (isAppError(error, "video_unavailable") || isAppError(error, "video_age_restricted")) throw error;
  }
}
