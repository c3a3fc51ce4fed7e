/** @module Fetches the chosen caption track: its PoToken gate, and YouTube's own limit on translated tracks. */
import { isAppError } from "../../domain/errors.ts";
import type { Cue } from "../../domain/transcript.ts";
import { BROWSER_USER_AGENT, CONSENT_IN_ADVANCE, innertubeClient } from "./innertube-clients.ts";
import { observeCall, type YoutubeObserver } from "./observed-call.ts";
import { onOrigin } from "./origin.ts";
import { readCaptions } from "./timedtext.ts";
import type { TrackChoice } from "./track-choice.ts";
import { httpStatusOf, type YoutubeTransport } from "./transport.ts";

/** The `exp` values that mark a caption URL YouTube serves only with a proof-of-origin token (an empty 200 without). */
const GATES = new Set(["xpe", "xpv"]);

/**
 * @param choice the chosen track
 * @param baseUrl the configured origin
 * @returns whether the track's URL needs a proof-of-origin token: any of its `exp` values (the parameter may come
 *   more than once, or list several values) is one that gates
 */
export function isGated(choice: TrackChoice, baseUrl: string): boolean {
  const values = onOrigin(choice.track.baseUrl, baseUrl).searchParams.getAll("exp").flatMap((v) => v.split(","));
  return values.some((value) => GATES.has(value.trim()));
}

/** One caption fetch: the track, where it goes, and the session's consent cookie. */
export interface CaptionRequest {
  transport: YoutubeTransport;
  videoId: string;
  choice: TrackChoice;
  baseUrl: string;
  /** The cookie that got past a consent wall, if one was met. */
  cookie?: string;
  signal?: AbortSignal;
  observe?: YoutubeObserver;
}

/**
 * Fetches a caption track in the classic format. A translation (`tlang`) refused with HTTP 429 is asked again as
 * YouTube's web player asks for it (its parameters, its referer); refused again, the original track is fetched: a 429
 * there too is a block of the route, anything else is the original language's transcript (YouTube limits translated
 * tracks on its own, from addresses it does not block).
 *
 * @returns the cues and the choice they were read from (the original track when the translation was refused)
 * @throws {AppError} the transport's and the caption reader's errors
 */
export async function fetchCaptions(request: CaptionRequest): Promise<{ cues: Cue[]; choice: TrackChoice }> {
  const { choice } = request;
  try {
    return { cues: await fetchTrack(request, choice, false), choice };
  } catch (error) {
    if (choice.translateTo === undefined || !isRateLimited(error)) throw error;
  }
  try {
    return { cues: await fetchTrack(request, choice, true), choice };
  } catch (error) {
    if (!isRateLimited(error)) throw error;
  }
  const original: TrackChoice = { track: choice.track };
  return { cues: await fetchTrack(request, original, false), choice: original };
}

async function fetchTrack(request: CaptionRequest, choice: TrackChoice, asWebPlayer: boolean): Promise<Cue[]> {
  // onOrigin first: it refuses a baseUrl that is not a URL with upstream_error (was a 500).
  const url = onOrigin(choice.track.baseUrl, request.baseUrl);
  url.searchParams.delete("fmt");
  if (choice.translateTo) url.searchParams.set("tlang", choice.translateTo);
  const cookie = request.cookie ? `${CONSENT_IN_ADVANCE}; ${request.cookie}` : CONSENT_IN_ADVANCE;
  const headers: Record<string, string> = { cookie, "user-agent": BROWSER_USER_AGENT };
  if (asWebPlayer) {
    for (const [name, value] of Object.entries(webPlayerParams())) url.searchParams.set(name, value);
    headers.referer = `${request.baseUrl}/watch?v=${encodeURIComponent(request.videoId)}`;
    headers.origin = request.baseUrl;
  }
  return await observeCall(request.observe, "caption", async () => {
    const body = await request.transport.text(url.pathname + url.search, { signal: request.signal, headers });
    return readCaptions(body, request.videoId);
  });
}

/** What YouTube's web player adds to a caption URL it fetches: its player, client and platform. */
function webPlayerParams(): Record<string, string> {
  const web = innertubeClient("WEB");
  const chrome = /Chrome\/([\d.]+)/.exec(BROWSER_USER_AGENT)?.[1] ?? "";
  return {
    xorb: "2",
    xobt: "3",
    xovt: "3",
    cbr: "Chrome",
    cbrver: chrome,
    c: web.name,
    cver: web.version,
    cplayer: "UNIPLAYER",
    cos: "Windows",
    cosver: "10.0",
    cplatform: "DESKTOP",
  };
}

function isRateLimited(error: unknown): boolean {
  return isAppError(error, "upstream_blocked") && httpStatusOf(error) === 429;
}
