/** @module Loopback fake of YouTube's player, watch-page and caption endpoints, built from captured responses. */
import { padded, resetMidBody, trickle } from "./fault-bodies.ts";
import { fixture, VIDEOS } from "./fixtures.ts";
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

/** Which page `GET /watch` serves: the real one, the EU consent wall (valid or without its `v` input), or reCAPTCHA. */
export type WatchPage = "page" | "consent" | "consent-invalid" | "recaptcha";

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
  endpoint: Endpoint | "other";
  path: string;
  query: Record<string, string>;
  body?: string;
  /** `context.client.clientName` of a player call. */
  client?: string;
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
  count(endpoint: Endpoint): number;
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
    seen.push({
      endpoint,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      client,
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
    const fault = endpoint === "other" ? undefined : faults.get(endpoint);
    if (fault) {
      const played = await play(fault);
      if (played) return played;
    }
    const normal = await answer(endpoint, url, body, client, cookie);
    return fault ? await shape(normal, fault) : normal;
  }

  function answer(
    endpoint: Endpoint | "other",
    url: URL,
    body: string | undefined,
    client: string | undefined,
    cookie: string | undefined,
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
    if (endpoint === "watch") return html(watchBody(watchPage, cookie));
    if (endpoint === "caption") {
      if (url.search.includes("exp=xpe")) return new Response("", { headers: { "content-type": "text/xml" } });
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
    reset() {
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

function endpointOf(path: string): Endpoint | "other" {
  if (path === "/youtubei/v1/player") return "player";
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
  return json(fixture(file));
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
function refusal(kind: BlockKind, endpoint: Endpoint | "other"): Response {
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

function clientOf(body: string | undefined): string | undefined {
  try {
    return JSON.parse(body ?? "{}").context?.client?.clientName;
  } catch {
    return undefined;
  }
}

/** A consent wall until the form's cookie is sent; the real watch page after. */
function watchBody(page: WatchPage, cookie: string | undefined): string {
  if (page === "recaptcha") return fixture("youtube_too_many_requests.html");
  if (page === "consent-invalid") return fixture("youtube_consent_page_invalid.html");
  if (page === "consent" && !cookie?.includes(CONSENT_COOKIE)) return fixture("youtube_consent_page.html");
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
