/** @module Gets a video's player answer: each configured client in turn, then the watch page's keyed call. */
import { AppError, isAppError } from "../../domain/errors.ts";
import { clientAnswer, type ClientTrail } from "./client-health.ts";
import type { InnertubeClient } from "./innertube-clients.ts";
import { observeCall, type YoutubeObserver } from "./observed-call.ts";
import { askPlayer } from "./player-request.ts";
import { type PlayerInfo, playerVideoId, readPlayerResponse } from "./player-response.ts";
import { everyClientRetired, isRetired } from "./retired-client.ts";
import type { YoutubeTransport } from "./transport.ts";
import { isUnreadable } from "./unreadable.ts";
import { fetchWatchPage } from "./watch-page.ts";

/** A player answer read, the client that got it, and the consent cookie that got it, if one was needed. */
export interface Session {
  info: PlayerInfo;
  client: InnertubeClient;
  cookie?: string;
  /** Index of the first configured client not yet asked (all of them asked after the watch page). */
  nextClient: number;
}

/** Where a session is read: one route's transport, this try's record of the clients' answers, the caller's signal. */
export interface SessionContext {
  transport: YoutubeTransport;
  videoId: string;
  trail: ClientTrail;
  signal?: AbortSignal;
}

/**
 * The ways to a player answer:
 * 1. `POST /youtubei/v1/player` without a key, with each configured client in turn. A retired client (HTTP 400, a
 *    reason asking for a newer app, an answer naming no video) and an answer another client may read differently
 *    (unparsable, other playability refusal) move on to the next; a block, a timeout, an unavailable or
 *    age-restricted video end the try (a block is about the address: the caller moves to another route).
 * 2. When no client gave a readable answer (and the video was not plainly refused), `GET /watch?v=ID`: its own player
 *    answer settles unavailable and age-restricted videos; its `INNERTUBE_API_KEY` makes one keyed call with the first
 *    client not refused as retired. When every client was retired, the refusal names them all.
 *
 * @param options the configured clients, in order, and the metrics' observer
 * @returns the session reader, and the key-less loop on its own (asked again for an ungated track)
 */
export function createPlayerSessions(options: { clients: readonly InnertubeClient[]; observe?: YoutubeObserver }) {
  const { clients, observe } = options;

  /** @returns the first readable answer of the clients from `from` on, or the refusal that ended the loop */
  async function keyless(at: SessionContext, from = 0): Promise<Session | AppError> {
    let refusal: AppError | undefined;
    for (let index = from; index < clients.length; index++) {
      const client = clients[index]!;
      try {
        const info = await observeCall(
          observe,
          "player",
          () => askPlayer(at.transport, at.videoId, { client, signal: at.signal }),
        );
        at.trail.note(client, "ok");
        return { info, client, nextClient: index + 1 };
      } catch (error) {
        at.trail.note(client, clientAnswer(error));
        if (isRetired(error)) continue;
        if (!anotherClientMayHelp(error)) throw error;
        refusal = error;
      }
    }
    if (refusal) return refusal;
    if (clients.every((c) => at.trail.isRetired(c))) return everyClientRetired(at.trail.retired);
    return new AppError(
      "upstream_error",
      `YouTube sent no usable player response for video ${at.videoId}; try again later`,
    );
  }

  async function viaWatchPage(at: SessionContext, refusal: AppError): Promise<Session> {
    const page = await observeCall(observe, "watch_page", () => fetchWatchPage(at.transport, at.videoId, at.signal));
    if (playerVideoId(page.playerResponse) === at.videoId) assertNotGone(page.playerResponse, at.videoId);
    const client = clients.find((c) => !at.trail.isRetired(c));
    if (!page.apiKey || !client) throw refusal;
    const keyed = { client, apiKey: page.apiKey, cookie: page.cookie, signal: at.signal };
    try {
      const info = await observeCall(observe, "player", () => askPlayer(at.transport, at.videoId, keyed));
      at.trail.note(client, "ok");
      return { info, client, cookie: page.cookie, nextClient: clients.length };
    } catch (error) {
      at.trail.note(client, clientAnswer(error));
      if (isRetired(error) && clients.every((c) => at.trail.isRetired(c))) throw everyClientRetired(at.trail.retired);
      throw error;
    }
  }

  /** @returns the video's player answer, by the first way that gives one */
  async function session(at: SessionContext): Promise<Session> {
    const first = await keyless(at);
    if (!(first instanceof AppError)) return first;
    if (isAppError(first, "video_unplayable")) throw first;
    return await viaWatchPage(at, first);
  }

  return { session, keyless };
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
