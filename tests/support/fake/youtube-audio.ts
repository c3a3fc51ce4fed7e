/** @module A loopback YouTube whose caption-less videos offer real audio, in ranges, bound to the asker. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LATE_2026, POT_REQUIRED, retiredAnswer } from "./youtube-rules.ts";
import { fixture, VIDEOS } from "../fixtures.ts";

const AUDIO_DIR = fileURLToPath(new URL("../../fixtures/audio/", import.meta.url));
/** The committed audio files, by name. */
export const AUDIO = {
  webm: new Uint8Array(readFileSync(AUDIO_DIR + "speech.webm")),
  fragmentedM4a: new Uint8Array(readFileSync(AUDIO_DIR + "speech-fragmented.m4a")),
  m4a: new Uint8Array(readFileSync(AUDIO_DIR + "speech.m4a")),
};
/** Length of every fixture's speech, in whole seconds, as a player response states it. */
export const SPEECH_SECONDS = 59;

/** The caption-less videos the fake serves, each a variant of the captured player answer of a video without captions. */
export const SPEECH_VIDEOS = {
  /** Opus (249, 250, 251) and AAC (140): the lowest bitrate is WebM/Opus (249). */
  webm: "speechWebm1",
  /** Like `webm`, for a test that needs a video no other test transcribed (none cached). */
  fresh: "speechFresh",
  /** Like `webm`, one more video no other test of a file transcribed. */
  spare: "speechSpare",
  /** AAC only: 139 (fragmented MP4, lowest) and 140 (plain MP4). */
  m4a: "speechM4a01",
  /** The primary client gets only `signatureCipher` formats; VISIONOS gets direct URLs. */
  noUrl: "speechNoUrl",
  /** The audio URL answers 403 (as YouTube does for a PoToken-less or rebound URL). */
  forbidden: "speech403xx",
  /** Three hours long. */
  long: "speechLong1",
  /** No audio-only format for any client. */
  noAudio: "speechNoAud",
} as const;

/** One request the fake received. */
export interface AudioSeen {
  endpoint: "player" | "caption" | "audio" | "other";
  /** The peer's address (a proxy's outgoing address when there is one). */
  ip: string;
  /** The client of a player call, or the one an audio URL was given to (its `c`). */
  client?: string;
  videoId?: string;
  range?: string;
  status: number;
}

export interface FakeYoutubeAudio {
  origin: string;
  seen: AudioSeen[];
  count(endpoint: AudioSeen["endpoint"]): number;
  /** Audio asked from these addresses answers 429 (a block of that route); none after `reset`. */
  blockAudio(addresses: readonly string[]): void;
  /** Player calls answer after this many ms (0, none, after `reset`): a caller can leave while YouTube answers. */
  delayPlayer(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

/** Itag 1 is no real format: bytes that are no audio, for a URL a test rewrites to it. */
const FILE_BY_ITAG: Record<number, Uint8Array> = {
  1: new TextEncoder().encode("<html>not audio</html>".repeat(50)),
  249: AUDIO.webm,
  250: AUDIO.webm,
  251: AUDIO.webm,
  139: AUDIO.fragmentedM4a,
  140: AUDIO.m4a,
};
const PLAYER_BY_ID = new Map<string, string>(Object.values(VIDEOS).map((v) => [v.id, v.player]));

/** @returns the fake, listening on 127.0.0.1 (reached from any loopback source address, e.g. a proxy bound to 127.0.0.2) */
export function startFakeYoutubeAudio(): FakeYoutubeAudio {
  const seen: AudioSeen[] = [];
  let blocked = new Set<string>();
  let playerDelayMs = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(request, srv) {
      const ip = srv.requestIP(request)?.address.replace(/^::ffff:/, "") ?? "";
      const url = new URL(request.url);
      const note = (
        entry: Omit<AudioSeen, "ip" | "status">,
        response: Response,
      ) => (seen.push({ ip, ...entry, status: response.status }), response);
      if (url.pathname === "/youtubei/v1/player") {
        const text = await request.text();
        const body = JSON.parse(text);
        const client = body?.context?.client?.clientName;
        if (playerDelayMs > 0) await Bun.sleep(playerDelayMs);
        const answer = retiredAnswer(LATE_2026, text) ?? json(playerFor(body.videoId, client, ip));
        return note({ endpoint: "player", client, videoId: body.videoId }, answer);
      }
      if (url.pathname === "/api/timedtext") {
        return note(
          { endpoint: "caption" },
          new Response(fixture("transcript.xml"), { headers: { "content-type": "text/xml" } }),
        );
      }
      if (url.pathname === "/videoplayback") {
        const range = request.headers.get("range") ?? undefined;
        const answer = blocked.has(ip)
          ? new Response("Too Many Requests", { status: 429, headers: { "retry-after": "30" } })
          : audio(url, ip, range);
        const client = url.searchParams.get("c") ?? undefined;
        return note({ endpoint: "audio", videoId: url.searchParams.get("id") ?? "", range, client }, answer);
      }
      return note({ endpoint: "other" }, new Response("Not found", { status: 404 }));
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    seen,
    count: (endpoint) => seen.filter((s) => s.endpoint === endpoint).length,
    blockAudio: (addresses) => void (blocked = new Set(addresses)),
    delayPlayer: (ms) => void (playerDelayMs = ms),
    reset() {
      seen.length = 0;
      blocked = new Set();
      playerDelayMs = 0;
    },
    close: () => server.stop(true),
  };
}

/** A player response: the captured caption-less one, with this video's id, length and audio formats. */
function playerFor(videoId: string, client: string | undefined, ip: string): string {
  const speech = Object.values(SPEECH_VIDEOS) as string[];
  if (!speech.includes(videoId)) {
    return fixture(PLAYER_BY_ID.get(videoId) ?? "youtube_video_unavailable.innertube.json");
  }
  const player = JSON.parse(fixture(VIDEOS.captionsDisabled.player));
  player.videoDetails.videoId = videoId;
  player.videoDetails.lengthSeconds = String(videoId === SPEECH_VIDEOS.long ? 3 * 3600 : SPEECH_SECONDS);
  const video = player.streamingData.adaptiveFormats.filter((f: any) => f.mimeType.startsWith("video/"));
  const itags = videoId === SPEECH_VIDEOS.m4a
    ? [139, 140]
    : videoId === SPEECH_VIDEOS.noAudio
    ? []
    : [249, 250, 251, 140];
  const audio = player.streamingData.adaptiveFormats.filter((f: any) => itags.includes(f.itag)).map((f: any) => {
    const bytes = FILE_BY_ITAG[f.itag]!;
    // googlevideo-like URL on another host (the service must move it onto YOUTUBE_BASE_URL), bound to the asking address
    // and naming the client that got it (`c`), as YouTube's do.
    const url = `https://rr1---sn-fake.googlevideo.com/videoplayback?expire=1&id=${videoId}&itag=${f.itag}&ip=${
      encodeURIComponent(ip)
    }&source=youtube&c=${client}`;
    const direct = videoId !== SPEECH_VIDEOS.noUrl || client === "VISIONOS";
    const { url: _url, signatureCipher: _cipher, ...rest } = f;
    return {
      ...rest,
      contentLength: String(bytes.byteLength),
      approxDurationMs: String(SPEECH_SECONDS * 1000),
      ...(direct ? { url } : { signatureCipher: `s=XYZ&sp=sig&url=${encodeURIComponent(url)}` }),
    };
  });
  player.streamingData.adaptiveFormats = [...video, ...audio];
  return JSON.stringify(player);
}

/**
 * The audio bytes asked for: 403 unless asked from the address the URL is bound to, with a `pot` for the clients that
 * need one; ranges honoured (206).
 */
function audio(url: URL, ip: string, range: string | undefined): Response {
  const bytes = FILE_BY_ITAG[Number(url.searchParams.get("itag"))];
  const needsToken = POT_REQUIRED.has(url.searchParams.get("c") ?? "") && !url.searchParams.has("pot");
  if (
    !bytes || url.searchParams.get("ip") !== ip || url.searchParams.get("id") === SPEECH_VIDEOS.forbidden || needsToken
  ) {
    return new Response("", { status: 403 });
  }
  const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? "");
  if (!match) {
    return new Response(bytes.slice(), {
      headers: { "content-type": "audio/webm", "content-length": String(bytes.byteLength) },
    });
  }
  const start = Number(match[1]);
  const end = Math.min(bytes.byteLength - 1, match[2] ? Number(match[2]) : bytes.byteLength - 1);
  if (start >= bytes.byteLength) {
    return new Response("", { status: 416, headers: { "content-range": `bytes */${bytes.byteLength}` } });
  }
  return new Response(bytes.slice(start, end + 1), {
    status: 206,
    headers: {
      "content-range": `bytes ${start}-${end}/${bytes.byteLength}`,
      "content-type": "application/octet-stream",
    },
  });
}

function json(text: string): Response {
  return new Response(text, { headers: { "content-type": "application/json; charset=UTF-8" } });
}
