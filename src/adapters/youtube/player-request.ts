/** @module Sends an InnerTube player request for a video with a given client identity, and reads its body. */
import type { YoutubeTransport } from "./transport.ts";
import { type PlayerInfo, readPlayerResponse } from "./player-response.ts";
import { unreadable } from "./unreadable.ts";

/** An InnerTube client identity, e.g. ANDROID 20.10.38. */
export interface InnertubeClient {
  name: string;
  version: string;
  /** More `context.client` fields the client is known by (an audio client's device, OS and user agent). */
  context?: Readonly<Record<string, string | number>>;
}

/** How one player call is made. */
export interface PlayerCall {
  client: InnertubeClient;
  /** `INNERTUBE_API_KEY` from the watch page; the first calls are key-less. */
  apiKey?: string;
  cookie?: string;
  signal?: AbortSignal;
}

/**
 * Asks `POST /youtubei/v1/player` about a video.
 *
 * @returns the body as sent, to be read by {@linkcode readPlayerBody}
 * @throws {AppError} the transport's errors (HTTP status, timeout, network)
 */
export async function requestPlayer(transport: YoutubeTransport, videoId: string, call: PlayerCall): Promise<string> {
  const key = call.apiKey ? `&key=${encodeURIComponent(call.apiKey)}` : "";
  const body = JSON.stringify({
    context: {
      client: {
        clientName: call.client.name,
        clientVersion: call.client.version,
        hl: "en",
        gl: "US",
        ...call.client.context,
      },
    },
    videoId,
    contentCheckOk: true,
    racyCheckOk: true,
  });
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": userAgent(call.client) };
  if (call.cookie) headers.cookie = call.cookie;
  return await transport.text(`/youtubei/v1/player?prettyPrint=false${key}`, {
    method: "POST",
    body,
    headers,
    signal: call.signal,
  });
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

/** The apps' own user agents; YouTube answers some clients differently without them. */
function userAgent(client: InnertubeClient): string {
  if (typeof client.context?.userAgent === "string") return client.context.userAgent;
  if (client.name === "ANDROID") return `com.google.android.youtube/${client.version} (Linux; U; Android 14) gzip`;
  if (client.name === "IOS") {
    return `com.google.ios.youtube/${client.version} (iPhone16,2; U; CPU iOS 17_5_1 like Mac OS X)`;
  }
  return "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
}
