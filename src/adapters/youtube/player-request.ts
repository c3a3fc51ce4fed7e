/** @module Sends an InnerTube player request for a video with a given client identity, and reads its body. */
import type { YoutubeTransport } from "./transport.ts";
import { httpStatusOf } from "./transport.ts";
import { clientContext, clientHeaders, type InnertubeClient } from "./innertube-clients.ts";
import { type PlayerInfo, readPlayerResponse } from "./player-response.ts";
import { isRetired, retiredClient, retiredDetail } from "./retired-client.ts";
import { unreadable } from "./unreadable.ts";

export type { InnertubeClient } from "./innertube-clients.ts";

/** How one player call is made. */
export interface PlayerCall {
  client: InnertubeClient;
  /** `INNERTUBE_API_KEY` from the watch page; the first calls are key-less. */
  apiKey?: string;
  cookie?: string;
  signal?: AbortSignal;
}

/**
 * Asks `POST /youtubei/v1/player` about a video, as the client's app does: its context fields, user agent and
 * `X-YouTube-Client-*` headers.
 *
 * @returns the body as sent, to be read by {@linkcode readPlayerBody}
 * @throws {AppError} a retired client for HTTP 400 (YouTube's "Precondition check failed" to an app version it no
 *   longer serves), else the transport's errors (HTTP status, timeout, network)
 */
export async function requestPlayer(transport: YoutubeTransport, videoId: string, call: PlayerCall): Promise<string> {
  const key = call.apiKey ? `&key=${encodeURIComponent(call.apiKey)}` : "";
  const body = JSON.stringify({
    context: { client: clientContext(call.client) },
    videoId,
    contentCheckOk: true,
    racyCheckOk: true,
  });
  const headers: Record<string, string> = { "content-type": "application/json", ...clientHeaders(call.client) };
  if (call.cookie) headers.cookie = call.cookie;
  try {
    return await transport.text(`/youtubei/v1/player?prettyPrint=false${key}`, {
      method: "POST",
      body,
      headers,
      signal: call.signal,
    });
  } catch (error) {
    // The request is the same for every video: a 400 refuses the identity it presents, not the video.
    if (httpStatusOf(error) === 400) throw retiredClient(call.client, "HTTP 400 on the player call");
    throw error;
  }
}

/**
 * @param text a player response body
 * @param videoId the video asked about
 * @returns playability, length and tracks
 * @throws {AppError} the playability taxonomy of {@linkcode readPlayerResponse}, or unreadable
 */
export function readPlayerBody(text: string, videoId: string): PlayerInfo {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadable("a player response", "not JSON");
  }
  return readPlayerResponse(json, videoId);
}

/**
 * One player call, sent and read, with a retired answer naming the client that got it.
 *
 * @returns playability, length and tracks
 * @throws {AppError} as {@linkcode requestPlayer} and {@linkcode readPlayerBody}
 */
export async function askPlayer(transport: YoutubeTransport, videoId: string, call: PlayerCall): Promise<PlayerInfo> {
  const text = await requestPlayer(transport, videoId, call);
  try {
    return readPlayerBody(text, videoId);
  } catch (error) {
    if (isRetired(error)) throw retiredClient(call.client, retiredDetail(error));
    throw error;
  }
}
