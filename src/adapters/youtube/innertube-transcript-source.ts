/** @module Reads transcripts through YouTube's InnerTube player endpoint, with its fallbacks on refusal. */
import { AppError, isAppError } from "../../domain/errors.ts";
import type { TranscriptSource } from "../../domain/ports.ts";
import type { Cue, Transcript, TranscriptQuery } from "../../domain/transcript.ts";
import { onOrigin } from "./origin.ts";
import { type InnertubeClient, readPlayerBody, requestPlayer } from "./player-request.ts";
import { type PlayerInfo, playerVideoId, readPlayerResponse } from "./player-response.ts";
import { readCaptions } from "./timedtext.ts";
import { createRecentSessions } from "./recent-sessions.ts";
import { chooseTrack, spokenLanguage, type TrackChoice } from "./track-choice.ts";
import { countingTransport, createYoutubeTransport, type YoutubeTransport } from "./transport.ts";
import { isUnreadable } from "./unreadable.ts";
import { fetchWatchPage } from "./watch-page.ts";
import { observeCall, type YoutubeObserver } from "./observed-call.ts";
import type { SpeechReader } from "../speech/speech-reader.ts";

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
  /**
   * How long a player response may serve a `reusePlayer` fetch (10 minutes by
   * default: long enough for a question soon after a summary of the same
   * video, far inside the hours its caption URLs stay valid).
   */
  playerReuseMs?: number;
  /** Told how each player, watch-page and caption call ended (metrics). */
  observe?: YoutubeObserver;
  /**
   * Transcribes the audio of a video whose player response lists no caption track (`STT=groq`); none: such a video is a
   * 422.
   */
  speech?: SpeechReader;
}

/** A player response read, plus the consent cookie that got it, if one was needed. */
interface Session {
  info: PlayerInfo;
  cookie?: string;
  /** Index of the first configured client not yet asked (all of them asked after the watch page). */
  nextClient: number;
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
 *    (unparsable, other playability refusal); never for an unavailable or
 *    age-restricted video, nor for HTTP errors or timeouts, nor for a bot
 *    check: that is about the address, and the caller moves to another route.
 * 2. When every client sent an unparsable answer (not a plain refusal, which
 *    the watch page would repeat), `GET /watch?v=ID`: reCAPTCHA
 *    → 503; EU consent wall → once more with `CONSENT=YES+<v>`; the page's own
 *    player response settles unavailable and age-restricted videos; its
 *    `INNERTUBE_API_KEY` makes one keyed player call with the first client.
 *    Its WEB caption URLs are not used: they need a PoToken (`exp=xpe`).
 * A fetch marked `reusePlayer` (a second reading of a video, in another
 * language) reuses the player response read for that video in the last
 * `playerReuseMs`, so it costs only its caption request.
 *
 * 3. When the chosen track's URL needs a PoToken, the clients not yet asked
 *    are, in order, and the first that lists the same track ungated serves it:
 *    never another track than the choice rules picked from the first answer.
 *
 * @param options origin, clients, time limit and fetch
 * @returns the transcript source
 */
export function createInnertubeTranscriptSource(options: InnertubeOptions): TranscriptSource {
  const base = createYoutubeTransport(options);
  const read = createInnertubeReader(options);
  return { fetch: (videoId, query) => read(base, videoId, query) };
}

/** Reads one video's transcript with every request sent through `transport` (one egress route). */
export type TranscriptReader = (
  transport: YoutubeTransport,
  videoId: string,
  query: TranscriptQuery,
) => Promise<Transcript>;

/**
 * @param options clients, origin and player reuse, as for {@linkcode createInnertubeTranscriptSource}
 * @returns the same reader, sending through the transport each fetch is given
 */
export function createInnertubeReader(options: Omit<InnertubeOptions, "timeoutMs" | "fetch">): TranscriptReader {
  const clients = options.clients.length > 0 ? options.clients : DEFAULT_CLIENTS;
  const recent = createRecentSessions<Session>({ ttlMs: options.playerReuseMs ?? 10 * 60_000 });

  /**
   * @returns the first readable answer of the clients from `from` on, or the last refusal another client might have
   * changed
   */
  async function keyless(
    transport: YoutubeTransport,
    videoId: string,
    signal?: AbortSignal,
    from = 0,
  ): Promise<Session | AppError> {
    let refusal: AppError | undefined;
    for (let index = from; index < clients.length; index++) {
      // Only an answer another client may read differently moves on; the request's own errors (429, timeout) end here.
      let answered = false;
      try {
        const info = await observeCall(options.observe, "player", async () => {
          const text = await requestPlayer(transport, videoId, { client: clients[index]!, signal });
          answered = true;
          return readPlayerBody(text, videoId);
        });
        return { info, nextClient: index + 1 };
      } catch (error) {
        if (!answered || !anotherClientMayHelp(error)) throw error;
        refusal = error;
      }
    }
    return refusal ??
      new AppError("upstream_error", `YouTube sent no usable player response for video ${videoId}; try again later`);
  }

  async function viaWatchPage(
    transport: YoutubeTransport,
    videoId: string,
    refusal: AppError,
    signal?: AbortSignal,
  ): Promise<Session> {
    const page = await observeCall(options.observe, "watch_page", () => fetchWatchPage(transport, videoId, signal));
    if (playerVideoId(page.playerResponse) === videoId) assertNotGone(page.playerResponse, videoId);
    if (!page.apiKey) throw refusal;
    const keyed = { client: clients[0]!, apiKey: page.apiKey, cookie: page.cookie, signal };
    const info = await observeCall(
      options.observe,
      "player",
      async () => readPlayerBody(await requestPlayer(transport, videoId, keyed), videoId),
    );
    return { info, cookie: page.cookie, nextClient: clients.length };
  }

  async function session(transport: YoutubeTransport, videoId: string, signal?: AbortSignal): Promise<Session> {
    const first = await keyless(transport, videoId, signal);
    if (!(first instanceof AppError)) return first;
    if (isAppError(first, "video_unplayable")) throw first;
    return await viaWatchPage(transport, videoId, first, signal);
  }

  async function freshOrRecent(transport: YoutubeTransport, videoId: string, query: TranscriptQuery): Promise<Session> {
    const reused = query.reusePlayer ? recent.get(videoId) : undefined;
    if (reused) return reused;
    const fresh = await session(transport, videoId, query.signal);
    recent.set(videoId, fresh);
    return fresh;
  }

  async function captions(
    transport: YoutubeTransport,
    videoId: string,
    choice: TrackChoice,
    cookie?: string,
    signal?: AbortSignal,
  ): Promise<Cue[]> {
    // onOrigin first: it refuses a baseUrl that is not a URL with upstream_error (was a 500).
    const url = onOrigin(choice.track.baseUrl, options.baseUrl);
    url.searchParams.delete("fmt");
    if (choice.translateTo) url.searchParams.set("tlang", choice.translateTo);
    return await observeCall(options.observe, "caption", async () => {
      const body = await transport.text(url.pathname + url.search, { signal, headers: cookie ? { cookie } : {} });
      return readCaptions(body, videoId);
    });
  }

  /** The chosen track, from a client that lists it without a PoToken gate when the first one gated it. */
  async function ungated(
    transport: YoutubeTransport,
    videoId: string,
    first: Session,
    choice: TrackChoice,
    query: TranscriptQuery,
  ): Promise<{ info: PlayerInfo; choice: TrackChoice }> {
    let from = first.nextClient;
    while (isGated(choice, options.baseUrl) && from < clients.length) {
      const other = await keyless(transport, videoId, query.signal, from);
      if (other instanceof AppError) break;
      from = other.nextClient;
      const again = chooseTrack(other.info, query.languages, query.translate);
      if (again && sameTrack(again, choice) && !isGated(again, options.baseUrl)) {
        return { info: other.info, choice: again };
      }
    }
    if (isGated(choice, options.baseUrl)) {
      throw new AppError(
        "upstream_error",
        `YouTube requires a proof-of-origin token for the captions of video ${videoId}; try again later`,
      );
    }
    return { info: first.info, choice };
  }

  return async (routed, videoId, query) => {
    const transport = countingTransport(routed, query.countRequest);
    const reused = query.reusePlayer ? recent.get(videoId) : undefined;
    const first = reused ?? (await freshOrRecent(transport, videoId, query));
    const chosen = chooseTrack(first.info, query.languages, query.translate);
    if (!chosen && options.speech) {
      // Audio URLs are bound to the address that made the player call: a response read earlier, perhaps by
      // another route, is read again here, and the audio comes over this fetch's own transport.
      const own = reused ? await session(transport, videoId, query.signal) : first;
      return await options.speech.read({ transport, videoId, info: own.info, query });
    }
    if (!chosen) {
      throw new AppError(
        "transcript_unavailable",
        `Video ${videoId} has no captions, so there is no transcript to answer from`,
      );
    }
    const { info, choice } = await ungated(transport, videoId, first, chosen, query);
    const cues = await captions(transport, videoId, choice, first.cookie, query.signal);
    return {
      videoId,
      language: choice.translateTo ?? choice.track.languageCode,
      isGenerated: choice.track.isGenerated,
      isTranslated: choice.translateTo !== undefined,
      durationSeconds: info.lengthSeconds,
      title: info.title,
      videoLanguage: spokenLanguage(info),
      cues,
    } satisfies Transcript;
  };
}

/** A caption URL that YouTube serves only with a proof-of-origin token (PoToken). */
function isGated(choice: TrackChoice, baseUrl: string): boolean {
  return onOrigin(choice.track.baseUrl, baseUrl).searchParams.get("exp") === "xpe";
}

/** The same track as the choice rules picked: language, kind and translation alike. */
function sameTrack(a: TrackChoice, b: TrackChoice): boolean {
  return a.track.languageCode === b.track.languageCode && a.track.isGenerated === b.track.isGenerated &&
    a.translateTo === b.translateTo;
}

/** A bot check is about the address, not the client: it ends the fetch on this route (the caller switches routes). */
function anotherClientMayHelp(error: unknown): error is AppError {
  return isUnreadable(error) || isAppError(error, "video_unplayable");
}

/** Lets the watch page's own verdict stand when it says the video is gone or age-restricted. */
function assertNotGone(playerResponse: unknown, videoId: string): void {
  try {
    readPlayerResponse(playerResponse, videoId);
  } catch (error) {
    if (isAppError(error, "video_unavailable") || isAppError(error, "video_age_restricted")) throw error;
  }
}
