/** @module Loopback fake of YouTube's player, watch-page and caption endpoints, built from captured responses. */
import { padded, resetMidBody, trickle } from "./fault-bodies.ts";
import {
  audioAnswer,
  isGated,
  LATE_2026,
  refusesTranslation,
  retiredAnswer,
  type RetirementPolicy,
  type TranslationLimit,
} from "./youtube-rules.ts";

export type { TranslationLimit } from "./youtube-rules.ts";
import { fixture, VIDEOS } from "../fixtures.ts";
import { startLoopbackServer } from "./loopback-server.ts";

/** A fault the fake can play on one endpoint. */
export type Fault =
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "body"; body: string; contentType?: string }
  | { kind: "hang" }
  | { kind: "delay"; ms: number }
  | { kind: "reset" }
  /** Headers at once, then the normal body spread over `totalMs`. */
  | { kind: "trickle"; totalMs: number }
  /** The normal body followed by `padBytes` of whitespace. */
  | { kind: "oversized"; padBytes: number };

export type Endpoint = "player" | "watch" | "caption";

/** What the fake serves besides the endpoints faults are played on: audio of the captured video. */
type Other = "audio" | "other";

/**
 * Which page `GET /watch` serves: the real one, the EU consent wall, or reCAPTCHA. `consent` is the captured 2021 wall,
 * passed only with the cookie its form sets; `consent-current` is passed by the `SOCS=CAI` cookie a browser that
 * accepted the banner holds, as YouTube's wall is today; `consent-invalid` lacks its `v` input.
 */
export type WatchPage = "page" | "consent" | "consent-current" | "consent-invalid" | "recaptcha";

/** Player calls the fake answers with the bot check, as YouTube does for blocked clients. */
export interface PlayerGate {
  /** Client names (`ANDROID`, `IOS`) refused on key-less calls. */
  blockClients?: string[];
  /** Whether key-less calls (no `key=` from the watch page) are refused, whatever the client. */
  blockKeyless?: boolean;
  /** Whether key-less calls get a player answer the reader cannot read (`{}`), which sends the reader to the watch page. */
  garbleKeyless?: boolean;
  /** Rewrites the caption tracks a client's player answer lists (to gate them with `exp=xpe`, or drop some). */
  tracks?: (
    client: string,
    tracks: { baseUrl: string; languageCode: string; kind?: string }[],
  ) => { baseUrl: string; languageCode: string; kind?: string }[];
}

/** One request the fake received. */
export interface Seen {
  endpoint: Endpoint | Other;
  path: string;
  query: Record<string, string>;
  body?: string;
  /** `context.client.clientName` of a player call. */
  client?: string;
  /** `context.client.clientVersion` of a player call. */
  clientVersion?: string;
  /** The request's `user-agent`, `x-youtube-client-name`, `x-youtube-client-version` and `referer` headers. */
  headers: { userAgent?: string; clientName?: string; clientVersion?: string; referer?: string };
  cookie?: string;
  /** The address the request came from (a fake proxy's source address). */
  address: string;
}

/** How YouTube refuses a blocked address: HTTP 429, the bot check in a player response, the reCAPTCHA page, or the "sorry" redirect. */
export type BlockKind = "429" | "bot-check" | "recaptcha" | "sorry";

/** The cookie the captured consent page's form would set. */
export const CONSENT_COOKIE = "CONSENT=YES+cb.20210328-17-p0.de+FX+119";

export interface FakeYoutube {
  origin: string;
  seen: Seen[];
  count(endpoint: Endpoint | "audio"): number;
  /** Plays `fault` on every request to `endpoint` until cleared (undefined clears). */
  setFault(endpoint: Endpoint, fault: Fault | undefined): void;
  /**
   * Replaces the caption body for a video; with `language`, only for its
   * track in that language (`lang`) or YouTube's translation into it (`tlang`).
   */
  setCaption(videoId: string, body: string, language?: string): void;
  /** Chooses the page `GET /watch` serves (`page` by default). */
  setWatch(page: WatchPage): void;
  /** Refuses some player calls with the bot check (none by default). */
  setPlayerGate(gate: PlayerGate): void;
  /** Refuses every request from the addresses `blocked` names, the way it says (none by default). */
  setBlocked(blocked: (address: string) => BlockKind | undefined): void;
  /** Answers a caption request only from the address of the video's last player call (as YouTube binds caption URLs). */
  bindCaptions(on: boolean): void;
  /**
   * Which client versions are refused as retired, and how ({@linkcode LATE_2026} by default: ANDROID and IOS before 21,
   * with HTTP 400). A name not listed is served whatever its version.
   */
  setRetirement(policy: RetirementPolicy): void;
  /** How translated caption requests are answered (`none` by default). */
  setTranslationLimit(limit: TranslationLimit): void;
  reset(): void;
  /** Stops listening, so that every request meets a refused connection (the origin is shared by every endpoint). */
  refuseConnections(): Promise<void>;
  /** Listens again on the same port after {@linkcode refuseConnections}. */
  acceptConnections(): void;
  close(): Promise<void>;
}

const PLAYER_BY_ID = new Map<string, string>(Object.values(VIDEOS).map((v) => [v.id, v.player]));

/**
 * A loopback YouTube replaying the captured fixtures: the InnerTube player
 * endpoint (by video id), the watch page, and caption tracks (the classic
 * `transcript.xml`, or an empty body for PoToken-gated `exp=xpe` URLs, as
 * real YouTube does). With `anyVideo`, other well-formed ids play as the normal video.
 */
export function startFakeYoutube(options: { latencyMs?: number; anyVideo?: boolean } = {}): FakeYoutube {
  const seen: Seen[] = [];
  let retirement: RetirementPolicy = LATE_2026;
  let translationLimit: TranslationLimit = "none";
  const faults = new Map<Endpoint, Fault>();
  const captions = new Map<string, string>();
  const transcript = fixture("transcript.xml");
  let watchPage: WatchPage = "page";
  let gate: PlayerGate = {};
  let blocked: (address: string) => BlockKind | undefined = () => undefined;
  let bound = false;
  const playerAddress = new Map<string, string>();

  async function handle(request: Request, address: string): Promise<Response> {
    const url = new URL(request.url);
    const endpoint = endpointOf(url.pathname);
    const body = request.method === "POST" ? await request.text() : undefined;
    const client = endpoint === "player" ? clientOf(body) : undefined;
    const cookie = request.headers.get("cookie") ?? undefined;
    const header = (name: string) => request.headers.get(name) ?? undefined;
    seen.push({
      endpoint,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      client,
      clientVersion: endpoint === "player" ? versionOf(body) : undefined,
      headers: {
        userAgent: header("user-agent"),
        clientName: header("x-youtube-client-name"),
        clientVersion: header("x-youtube-client-version"),
        referer: header("referer"),
      },
      cookie,
      address,
    });
    if (options.latencyMs) await Bun.sleep(options.latencyMs);
    const block = blocked(address);
    if (block) return refusal(block, endpoint);
    if (endpoint === "player") playerAddress.set(videoIdOf(body), address);
    if (bound && endpoint === "caption" && playerAddress.get(url.searchParams.get("v") ?? "") !== address) {
      return new Response("", { status: 403 });
    }
    // A retired app version is refused whatever else the call says (keyed or not, fault or not).
    const retired = endpoint === "player" ? retiredAnswer(retirement, body) : undefined;
    if (retired) return retired;
    const fault = endpoint === "other" || endpoint === "audio" ? undefined : faults.get(endpoint);
    if (fault) {
      const played = await play(fault);
      if (played) return played;
    }
    const normal = await answer(endpoint, url, body, client, request.headers);
    return fault ? await shape(normal, fault) : normal;
  }

  function answer(
    endpoint: Endpoint | Other,
    url: URL,
    body: string | undefined,
    client: string | undefined,
    headers: Headers,
  ): Response | Promise<Response> {
    if (endpoint === "player") {
      const blocked = !url.searchParams.has("key") && (gate.blockKeyless || gate.blockClients?.includes(client ?? ""));
      if (blocked) return json(fixture(VIDEOS.botCheck.player));
      if (gate.garbleKeyless && !url.searchParams.has("key")) return json("{}");
      if (options.anyVideo) return anyVideoPlayer(body);
      return gate.tracks
        ? withTracks(playerResponse(body), (tracks) => gate.tracks!(client ?? "", tracks))
        : playerResponse(body);
    }
    if (endpoint === "audio") return audioAnswer(url, headers.get("range"));
    if (endpoint === "watch") return html(watchBody(watchPage, headers.get("cookie") ?? undefined));
    if (endpoint === "caption") {
      if (isGated(url)) return new Response("", { headers: { "content-type": "text/xml" } });
      if (url.searchParams.has("tlang") && refusesTranslation(translationLimit, url, headers)) {
        return new Response("Too Many Requests", { status: 429 });
      }
      const videoId = url.searchParams.get("v") ?? "";
      const language = url.searchParams.get("tlang") ?? url.searchParams.get("lang") ?? "";
      return new Response(captions.get(`${videoId}|${language}`) ?? captions.get(videoId) ?? transcript, {
        headers: { "content-type": "text/xml; charset=UTF-8" },
      });
    }
    return new Response("Not found", { status: 404 });
  }

  const server = startLoopbackServer(handle);
  const port = server.port;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    count: (endpoint) => seen.filter((s) => s.endpoint === endpoint).length,
    setFault: (endpoint, fault) => (fault ? faults.set(endpoint, fault) : faults.delete(endpoint)),
    setCaption: (videoId, body, language) => captions.set(language ? `${videoId}|${language}` : videoId, body),
    setWatch: (page) => (watchPage = page),
    setPlayerGate: (next) => (gate = next),
    setBlocked: (next) => (blocked = next),
    bindCaptions: (on) => (bound = on),
    setRetirement: (policy) => (retirement = policy),
    setTranslationLimit: (limit) => (translationLimit = limit),
    reset() {
      retirement = LATE_2026;
      translationLimit = "none";
      blocked = () => undefined;
      bound = false;
      playerAddress.clear();
      seen.length = 0;
      faults.clear();
      captions.clear();
      watchPage = "page";
      gate = {};
    },
    refuseConnections: server.refuseConnections,
    acceptConnections: server.acceptConnections,
    close: server.close,
  };
}

function endpointOf(path: string): Endpoint | Other {
  if (path === "/youtubei/v1/player") return "player";
  if (path === "/videoplayback") return "audio";
  if (path === "/watch") return "watch";
  if (path === "/api/timedtext") return "caption";
  return "other";
}

function playerResponse(body: string | undefined): Response {
  let videoId = "";
  try {
    videoId = JSON.parse(body ?? "{}").videoId ?? "";
  } catch {
    return new Response("bad request", { status: 400 });
  }
  // Unknown ids play like a removed video, as YouTube answers them.
  const file = PLAYER_BY_ID.get(videoId) ?? "youtube_video_unavailable.innertube.json";
  const text = fixture(file);
  // A capture standing for a video it was not made of answers about the id asked, as YouTube would (but the answer
  // about another video, which is the point of `otherVideo`).
  const captured = /"videoDetails":\s*\{\s*"videoId":\s*"([^"]+)"/.exec(text)?.[1];
  // Its audio URLs name the client that asked (`c=`), as YouTube's do: the capture was made as ANDROID.
  const asked = text.replaceAll("&c=ANDROID&", `&c=${clientOf(body) ?? ""}&`);
  if (!captured || captured === videoId || videoId === VIDEOS.otherVideo.id) return json(asked);
  return json(asked.replaceAll(captured, videoId));
}

/** The normal video's player answer for any well-formed id not captured, under that id (caption URLs included). */
function anyVideoPlayer(body: string | undefined): Response {
  const videoId = videoIdOf(body);
  if (PLAYER_BY_ID.has(videoId) || !/^[A-Za-z0-9_-]{11}$/.test(videoId)) return playerResponse(body);
  return json(fixture(VIDEOS.normal.player).replaceAll(VIDEOS.normal.id, videoId));
}

/** A player answer whose caption track list went through `rewrite`. */
async function withTracks(
  response: Response,
  rewrite: (tracks: Parameters<NonNullable<PlayerGate["tracks"]>>[1]) => unknown[],
): Promise<Response> {
  const player = await response.json();
  const renderer = player?.captions?.playerCaptionsTracklistRenderer;
  if (renderer?.captionTracks) renderer.captionTracks = rewrite(renderer.captionTracks);
  return json(JSON.stringify(player));
}

/** What a blocked address gets from every endpoint. */
function refusal(kind: BlockKind, endpoint: Endpoint | Other): Response {
  if (kind === "429") return new Response("Too Many Requests", { status: 429 });
  if (kind === "sorry") {
    return new Response("", {
      status: 302,
      headers: { location: "https://www.google.com/sorry/index?continue=https://www.youtube.com/" },
    });
  }
  if (kind === "bot-check" && endpoint === "player") return json(fixture(VIDEOS.botCheck.player));
  return html(fixture("youtube_too_many_requests.html"));
}

function videoIdOf(body: string | undefined): string {
  try {
    return String(JSON.parse(body ?? "{}").videoId ?? "");
  } catch {
    return "";
  }
}

function versionOf(body: string | undefined): string | undefined {
  try {
    return JSON.parse(body ?? "{}").context?.client?.clientVersion;
  } catch {
    return undefined;
  }
}

function clientOf(body: string | undefined): string | undefined {
  try {
    return JSON.parse(body ?? "{}").context?.client?.clientName;
  } catch {
    return undefined;
  }
}

/** A consent wall until its cookie is sent (the form's, or today's `SOCS=CAI` for `consent-current`); the page after. */
function watchBody(page: WatchPage, cookie: string | undefined): string {
  if (page === "recaptcha") return fixture("youtube_too_many_requests.html");
  if (page === "consent-invalid") return fixture("youtube_consent_page_invalid.html");
  const passed = cookie?.includes(CONSENT_COOKIE) || (page === "consent-current" && /\bSOCS=CAI\b/.test(cookie ?? ""));
  if ((page === "consent" || page === "consent-current") && !passed) return fixture("youtube_consent_page.html");
  return fixture("youtube.html");
}

function json(text: string): Response {
  return new Response(text, { headers: { "content-type": "application/json; charset=UTF-8" } });
}

function html(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** @returns the response to send, or undefined to go on normally (after a delay) */
async function play(fault: Fault): Promise<Response | undefined> {
  switch (fault.kind) {
    case "status":
      return new Response(fault.body ?? "", { status: fault.status, headers: fault.headers });
    case "body":
      return new Response(fault.body, { headers: { "content-type": fault.contentType ?? "application/json" } });
    case "hang":
      await new Promise(() => {});
      return undefined;
    case "delay":
      await Bun.sleep(fault.ms);
      return undefined;
    case "reset":
      return new Response(resetMidBody('{"playabilityStatus":'), { headers: { "content-type": "application/json" } });
    default:
      return undefined;
  }
}

/** Plays a fault that changes how the normal response is sent rather than what it says. */
async function shape(normal: Response, fault: Fault): Promise<Response> {
  const init = {
    status: normal.status,
    headers: { "content-type": normal.headers.get("content-type") ?? "text/plain" },
  };
  if (fault.kind === "trickle") return new Response(trickle(await normal.text(), fault.totalMs), init);
  if (fault.kind === "oversized") return new Response(padded(await normal.text(), fault.padBytes), init);
  return normal;
}
