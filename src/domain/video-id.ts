/** @module Parses a YouTube URL into its 11-character video id. */
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const WATCH_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"]);
const NOCOOKIE_HOSTS = new Set(["youtube-nocookie.com", "www.youtube-nocookie.com"]);
const PATH_PREFIXES = ["shorts", "embed", "live", "v"];

/**
 * Extracts the 11-character video id from a YouTube video URL a person would
 * paste. Hosts are matched exactly, so look-alikes such as
 * `youtube.com.evil.example` are refused.
 *
 * @param input the URL as sent by the caller
 * @returns the video id, or `undefined` when `input` is not a YouTube video URL
 */
export function parseVideoId(input: string): string | undefined {
  const text = input.trim();
  const url = hasUserinfo(text) ? undefined : parseHttpUrl(text);
  if (!url || url.username || url.password || url.port) return undefined;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split("/").filter((s) => s !== "");
  let candidate: string | null | undefined;
  if (host === "youtu.be") {
    candidate = segments.length === 1 ? segments[0] : undefined;
  } else if (WATCH_HOSTS.has(host)) {
    candidate = idFromYoutubePath(segments, url.searchParams);
  } else if (NOCOOKIE_HOSTS.has(host)) {
    candidate = segments.length === 2 && segments[0] === "embed" ? segments[1] : undefined;
  }
  return candidate && VIDEO_ID.test(candidate) ? candidate : undefined;
}

function idFromYoutubePath(segments: string[], query: URLSearchParams): string | null | undefined {
  if (segments.length === 1 && segments[0] === "watch") return query.get("v");
  if (segments.length === 2 && PATH_PREFIXES.includes(segments[0]!)) return segments[1];
  return undefined;
}

/** `https://:@www.youtube.com/...` parses with an empty user name: any `@` before the path is refused. */
function hasUserinfo(text: string): boolean {
  const authority = text.replace(/^https?:\/\//i, "").split(/[/?#\\]/, 1)[0] ?? "";
  return authority.includes("@");
}

function parseHttpUrl(text: string): URL | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
