import { AppError, isAppError } from "../domain/errors.ts";
import type { TranscriptSource } from "../domain/ports.ts";
import type { Transcript } from "../domain/transcript.ts";
import { onOrigin } from "./youtube/origin.ts";
import { readPlayerResponse, type PlayerInfo } from "./youtube/player-response.ts";
import { parseTimedText } from "./youtube/timedtext.ts";
import { chooseTrack } from "./youtube/track-choice.ts";

/** An InnerTube client identity, e.g. ANDROID 20.10.38. */
export interface InnertubeClient {
  name: string;
  version: string;
}

export interface InnertubeOptions {
  /** Origin of every YouTube request (`YOUTUBE_BASE_URL`). */
  baseUrl: string;
  clients: readonly InnertubeClient[];
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * Reads transcripts through YouTube's InnerTube player endpoint: one request
 * for playability, length and caption tracks, one for the chosen track in the
 * classic caption format (times in seconds).
 */
export function createInnertubeTranscriptSource(options: InnertubeOptions): TranscriptSource {
  const fetcher = options.fetch ?? fetch;

  async function request(url: URL, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const response = await fetcher(url, { ...init, signal: combined, redirect: "manual" });
      if (response.status === 429) throw new AppError("upstream_blocked", "YouTube is rate-limiting this server (HTTP 429); try again later", { retryAfterSeconds: retryAfter(response) ?? 60 });
      if (response.status >= 300) throw new AppError("upstream_error", `YouTube answered with HTTP ${response.status}; try again later`);
      return response;
    } catch (error) {
      if (isAppError(error)) throw error;
      if (timeout.aborted || signal?.aborted) throw new AppError("upstream_timeout", `YouTube did not answer within ${options.timeoutMs / 1000} s; try again later`, { cause: error });
      throw new AppError("upstream_error", "Could not reach YouTube; try again later", { cause: error });
    }
  }

  async function player(videoId: string, client: InnertubeClient, signal?: AbortSignal): Promise<PlayerInfo> {
    const url = new URL("/youtubei/v1/player?prettyPrint=false", options.baseUrl);
    const body = JSON.stringify({ context: { client: { clientName: client.name, clientVersion: client.version, hl: "en" } }, videoId });
    const response = await request(url, { method: "POST", body, headers: { "content-type": "application/json" } }, signal);
    const json = await response.json().catch((cause) => {
      throw new AppError("upstream_error", "YouTube sent a player response the service could not read; try again later", { cause });
    });
    return readPlayerResponse(json, videoId);
  }

  return {
    async fetch(videoId, query) {
      const info = await player(videoId, options.clients[0]!, query.signal);
      const choice = chooseTrack(info, query.languages, query.translate);
      if (!choice) throw new AppError("transcript_unavailable", `Video ${videoId} has no captions, so there is no transcript to answer from`);
      if (choice.track.baseUrl.includes("exp=xpe")) {
        throw new AppError("upstream_error", `YouTube requires a proof-of-origin token for the captions of video ${videoId}; try again later`);
      }
      const url = onOrigin(choice.track.baseUrl, options.baseUrl);
      url.searchParams.delete("fmt");
      if (choice.translateTo) url.searchParams.set("tlang", choice.translateTo);
      const body = await (await request(url, { method: "GET" }, query.signal)).text();
      const cues = parseTimedText(body);
      if (!cues || cues.length === 0) {
        throw new AppError("upstream_error", `YouTube sent an empty or unreadable caption track for video ${videoId}; try again later`);
      }
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

function retryAfter(response: Response): number | undefined {
  const value = Number(response.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
