/** @module Reads transcripts through YouTube's InnerTube player endpoint, with its fallbacks on refusal. */
import { AppError } from "../../domain/errors.ts";
import type { TranscriptSource } from "../../domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../domain/transcript.ts";
import { fetchCaptions, isGated } from "./caption-fetch.ts";
import { type ClientHealth, ClientTrail } from "./client-health.ts";
import type { InnertubeClient } from "./player-request.ts";
import type { PlayerInfo } from "./player-response.ts";
import { createPlayerSessions, type Session, type SessionContext } from "./player-session.ts";
import { createRecentSessions } from "./recent-sessions.ts";
import { chooseTrack, spokenLanguage, type TrackChoice } from "./track-choice.ts";
import { countingTransport, createYoutubeTransport, type YoutubeTransport } from "./transport.ts";
import type { YoutubeObserver } from "./observed-call.ts";
import type { SpeechReader } from "./speech-fallback.ts";

export type { InnertubeClient } from "./player-request.ts";

export interface InnertubeOptions {
  /** Origin of every YouTube request (`YOUTUBE_BASE_URL`). */
  baseUrl: string;
  /**
   * Client identities, tried in order, at least one (config `YOUTUBE_CLIENTS`, completed from the client table, which
   * also gives the default list: no second default here).
   */
  clients: readonly InnertubeClient[];
  /** Time limit of each request. */
  timeoutMs: number;
  /** Proxy-aware on the server; defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * How long a player response may serve a `rereading` fetch (10 minutes by
   * default: long enough for a question soon after a summary of the same
   * video, far inside the hours its caption URLs stay valid).
   */
  playerReuseMs?: number;
  /** The source calls this as each player, watch-page and caption call ends (metrics). */
  observe?: YoutubeObserver;
  /** The source reports here what each client answered (the per-client gauge, the second strategy's identity). */
  health?: ClientHealth;
  /**
   * Transcribes the audio of a video whose player response lists no caption track (`STT=groq`); none: such a video is a
   * 422.
   */
  speech?: SpeechReader;
}

/**
 * Reads transcripts through YouTube's InnerTube player endpoint: one request
 * for playability, length and caption tracks (player-session.ts: each client in
 * turn, then the watch page), one for the chosen track in the classic caption
 * format (times in seconds; caption-fetch.ts: a translation YouTube refuses with
 * 429 is asked again as its web player asks, else read in the original language).
 *
 * A fetch marked `rereading` (a second reading of a video, in another
 * language) reuses the player response read for that video in the last
 * `playerReuseMs`, so it costs only its caption request.
 *
 * When the chosen track's URL needs a PoToken, the clients not yet asked
 * are, in order, and the first that lists the same track ungated serves it:
 * never another track than the choice rules picked from the first answer.
 *
 * The source tells the query's observer, at the end of each try, which client served it and what each client answered.
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
export type ReadThroughTransport = (
  transport: YoutubeTransport,
  videoId: string,
  query: TranscriptQuery,
) => Promise<Transcript>;

/**
 * @param options clients, origin and player reuse, as for {@linkcode createInnertubeTranscriptSource}
 * @returns the same reader, sending through the transport each fetch is given
 */
export function createInnertubeReader(options: Omit<InnertubeOptions, "timeoutMs" | "fetch">): ReadThroughTransport {
  const clients = options.clients;
  if (clients.length === 0) throw new RangeError("An InnerTube reader needs at least one client: none was given");
  const sessions = createPlayerSessions({ clients, observe: options.observe });
  const recent = createRecentSessions<Session>({ ttlMs: options.playerReuseMs ?? 10 * 60_000 });

  /** The chosen track, from a client that lists it without a PoToken gate when the first one gated it. */
  async function ungated(
    at: SessionContext,
    first: Session,
    choice: TrackChoice,
    query: TranscriptQuery,
  ): Promise<{ info: PlayerInfo; choice: TrackChoice; client: InnertubeClient }> {
    let from = first.nextClient;
    while (isGated(choice, options.baseUrl) && from < clients.length) {
      const other = await sessions.keyless(at, from);
      if (other instanceof AppError) break;
      from = other.nextClient;
      const again = chooseTrack(other.info, query.languages, query.translate);
      if (again && sameTrack(again, choice) && !isGated(again, options.baseUrl)) {
        return { info: other.info, choice: again, client: other.client };
      }
    }
    if (isGated(choice, options.baseUrl)) {
      throw new AppError(
        "upstream_error",
        `YouTube requires a proof-of-origin token for the captions of video ${at.videoId}; try again later`,
      );
    }
    return { info: first.info, choice, client: first.client };
  }

  async function readOnce(at: SessionContext, query: TranscriptQuery): Promise<Transcript> {
    const { videoId } = at;
    const reused = query.rereading ? recent.get(videoId) : undefined;
    const first = reused ?? (await sessions.session(at));
    if (!reused) recent.set(videoId, first);
    const chosen = chooseTrack(first.info, query.languages, query.translate);
    if (!chosen && options.speech) {
      // Audio URLs are bound to the address that made the player call: a response read earlier, perhaps by
      // another route, is read again here, and the audio comes over this fetch's own transport.
      const own = reused ? await sessions.session(at) : first;
      at.trail.served = own.client.name;
      return await options.speech.read({ transport: at.transport, videoId, info: own.info, client: own.client, query });
    }
    if (!chosen) {
      throw new AppError(
        "transcript_unavailable",
        `Video ${videoId} has no captions, so there is no transcript to answer from`,
      );
    }
    const { info, choice, client } = await ungated(at, first, chosen, query);
    const request = { ...at, choice, baseUrl: options.baseUrl, cookie: first.cookie, observe: options.observe };
    const fetched = await fetchCaptions(request);
    at.trail.served = client.name;
    return {
      videoId,
      language: fetched.choice.translateTo ?? fetched.choice.track.languageCode,
      isGenerated: fetched.choice.track.isGenerated,
      isTranslated: fetched.choice.translateTo !== undefined,
      durationSeconds: info.lengthSeconds,
      title: info.title,
      videoLanguage: spokenLanguage(info),
      cues: fetched.cues,
    } satisfies Transcript;
  }

  return async (routed, videoId, query) => {
    const transport = countingTransport(routed, query.observer?.request);
    const trail = new ClientTrail(options.health);
    try {
      return await readOnce({ transport, videoId, trail, signal: query.signal }, query);
    } finally {
      query.observer?.clients?.(trail.served, trail.answers);
    }
  };
}

/** The same track as the choice rules picked: language, kind and translation alike. */
function sameTrack(a: TrackChoice, b: TrackChoice): boolean {
  return a.track.languageCode === b.track.languageCode && a.track.isGenerated === b.track.isGenerated &&
    a.translateTo === b.translateTo;
}
