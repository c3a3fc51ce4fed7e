import { fixture, VIDEOS } from "./fixtures.ts";

/** A fault the fake can play on one endpoint. */
export type Fault =
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "body"; body: string; contentType?: string }
  | { kind: "hang" }
  | { kind: "delay"; ms: number }
  | { kind: "reset" };

export type Endpoint = "player" | "watch" | "caption";

/** One request the fake received. */
export interface Seen {
  endpoint: Endpoint | "other";
  path: string;
  query: Record<string, string>;
  body?: string;
}

export interface FakeYoutube {
  origin: string;
  seen: Seen[];
  count(endpoint: Endpoint): number;
  /** Plays `fault` on every request to `endpoint` until cleared (undefined clears). */
  setFault(endpoint: Endpoint, fault: Fault | undefined): void;
  /** Replaces the caption body for a video; `lang` keyed, `*` for any. */
  setCaption(videoId: string, body: string): void;
  reset(): void;
  close(): Promise<void>;
}

const PLAYER_BY_ID = new Map<string, string>(Object.values(VIDEOS).map((v) => [v.id, v.player]));

/**
 * A loopback YouTube replaying the captured fixtures: the InnerTube player
 * endpoint (by video id), the watch page, and caption tracks (the classic
 * `transcript.xml`, or an empty body for PoToken-gated `exp=xpe` URLs, as
 * real YouTube does).
 */
export function startFakeYoutube(options: { latencyMs?: number } = {}): FakeYoutube {
  const seen: Seen[] = [];
  const faults = new Map<Endpoint, Fault>();
  const captions = new Map<string, string>();
  const transcript = fixture("transcript.xml");

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const endpoint = endpointOf(url.pathname);
      const body = request.method === "POST" ? await request.text() : undefined;
      seen.push({ endpoint, path: url.pathname, query: Object.fromEntries(url.searchParams), body });
      if (options.latencyMs) await Bun.sleep(options.latencyMs);
      const fault = endpoint === "other" ? undefined : faults.get(endpoint);
      if (fault) {
        const played = await play(fault);
        if (played) return played;
      }
      if (endpoint === "player") return playerResponse(body);
      if (endpoint === "watch") return html(fixture("youtube.html"));
      if (endpoint === "caption") {
        if (url.search.includes("exp=xpe")) return new Response("", { headers: { "content-type": "text/xml" } });
        const videoId = url.searchParams.get("v") ?? "";
        return new Response(captions.get(videoId) ?? transcript, { headers: { "content-type": "text/xml; charset=UTF-8" } });
      }
      return new Response("Not found", { status: 404 });
    },
  });

  return {
    origin: `http://127.0.0.1:${server.port}`,
    seen,
    count: (endpoint) => seen.filter((s) => s.endpoint === endpoint).length,
    setFault: (endpoint, fault) => (fault ? faults.set(endpoint, fault) : faults.delete(endpoint)),
    setCaption: (videoId, body) => captions.set(videoId, body),
    reset() {
      seen.length = 0;
      faults.clear();
      captions.clear();
    },
    close: async () => {
      server.stop(true);
    },
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
  return new Response(fixture(file), { headers: { "content-type": "application/json; charset=UTF-8" } });
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
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"playabilityStatus":'));
            controller.error(new Error("connection reset by the fake"));
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
  }
}
