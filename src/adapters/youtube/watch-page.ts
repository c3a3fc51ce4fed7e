/** @module Fetches and reads YouTube's watch page, getting past the consent wall once. */
import { AppError } from "../../domain/errors.ts";
import { CONSENT_IN_ADVANCE } from "./innertube-clients.ts";
import type { YoutubeTransport } from "./transport.ts";
import { unreadable } from "./unreadable.ts";

/** What the watch page gives the fallback path. */
export interface WatchPage {
  /** `INNERTUBE_API_KEY`, for a keyed player call. */
  apiKey?: string;
  /** `ytInitialPlayerResponse`, parsed (the WEB client's view of the video). */
  playerResponse?: unknown;
  /** Cookie that got past the consent wall, to send on later requests. */
  cookie?: string;
}

/** What a served page turned out to be. */
export type PageKind = { kind: "recaptcha" } | { kind: "consent"; value?: string } | { kind: "watch" };

const CONSENT_FORM = 'action="https://consent.youtube.com/s"';

/** @returns whether `html` is the reCAPTCHA wall, the EU consent wall (with its `v` value) or a watch page */
export function classifyPage(html: string): PageKind {
  if (html.includes('class="g-recaptcha"')) return { kind: "recaptcha" };
  if (html.includes(CONSENT_FORM)) return { kind: "consent", value: /name="v" value="([^"]+)"/.exec(html)?.[1] };
  return { kind: "watch" };
}

/**
 * Fetches `/watch?v=ID` with the consent cookie a browser holds once it accepted YouTube's banner (`SOCS=CAI`), so
 * that no consent wall is shown. A wall shown anyway is answered once with the cookie its form would set
 * (`CONSENT=YES+<v>`), which the session's later requests carry.
 *
 * @throws {AppError} upstream_blocked for a reCAPTCHA page, upstream_error for
 *   a consent wall that cannot be accepted, and the transport's errors
 */
export async function fetchWatchPage(
  transport: YoutubeTransport,
  videoId: string,
  signal?: AbortSignal,
): Promise<WatchPage> {
  const path = `/watch?v=${encodeURIComponent(videoId)}&hl=en`;
  let cookie: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const sent = cookie ? `${CONSENT_IN_ADVANCE}; ${cookie}` : CONSENT_IN_ADVANCE;
    const html = await transport.text(path, { signal, headers: { cookie: sent } });
    const page = classifyPage(html);
    if (page.kind === "recaptcha") {
      throw new AppError(
        "upstream_blocked",
        "YouTube asked this server to solve a reCAPTCHA (unusual traffic); try again later",
        { retryAfterSeconds: 60 },
      );
    }
    if (page.kind === "watch") return { ...readWatchPage(html), cookie };
    if (!page.value || cookie) {
      throw new AppError(
        "upstream_error",
        "YouTube showed a cookie-consent page the service could not accept; try again later, or set HTTPS_PROXY to " +
          "a server outside the EU",
      );
    }
    cookie = `CONSENT=YES+${page.value}`;
  }
  throw unreadable("a watch page", "consent loop");
}

/** @returns the API key and initial player response found in a watch page's HTML */
export function readWatchPage(html: string): Omit<WatchPage, "cookie"> {
  const apiKey = /"INNERTUBE_API_KEY":\s*"([A-Za-z0-9_-]+)"/.exec(html)?.[1];
  return { apiKey, playerResponse: inlineJson(html, "ytInitialPlayerResponse") };
}

/**
 * Reads `var NAME = {...};` from inline script, matching braces outside
 * strings so that braces inside captions or titles do not end it early.
 */
function inlineJson(html: string, name: string): unknown {
  const start = html.search(new RegExp(`\\b${name}\\s*=\\s*\\{`));
  if (start === -1) return undefined;
  const open = html.indexOf("{", start);
  let depth = 0;
  let inString = false;
  for (let i = open; i < html.length; i++) {
    const c = html[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return parseOrUndefined(html.slice(open, i + 1));
  }
  return undefined;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
