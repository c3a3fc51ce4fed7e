/** @module Reads YOUTUBE_PROXIES and the settings of the routes' breakers and retries on block. */
import type { EnvReader } from "./readers.ts";

/** Egress routes to YouTube and how blocks on them are handled. */
export interface YoutubeRoutesConfig {
  /** `direct` or a proxy URL (credentials included), in the configured order. */
  routes: string[];
  /** Further tries of a blocked transcript fetch (`YOUTUBE_BLOCK_RETRIES`). */
  blockRetries: number;
  /** Blocks in a row that open a route's breaker (`YOUTUBE_ROUTE_FAILURES`). */
  routeFailures: number;
  /** First cool-down of an open breaker (`YOUTUBE_ROUTE_COOLDOWN_MS`), doubled per failed trial up to an hour. */
  routeCooldownMs: number;
}

/**
 * @param read the environment reader (problems are added to it)
 * @param proxy `HTTPS_PROXY`, the default single route when `YOUTUBE_PROXIES` is unset
 */
export function readYoutubeRoutes(read: EnvReader, proxy: string | undefined): YoutubeRoutesConfig {
  const listed = read.raw("YOUTUBE_PROXIES") !== undefined;
  const entries = listed ? read.list("YOUTUBE_PROXIES") : [proxy ?? "direct"];
  entries.forEach((entry, index) => {
    const problem = routeProblem(entry);
    // The entry itself may hold credentials: only its position is named.
    if (problem) read.fail(`YOUTUBE_PROXIES entry ${index + 1} ${problem}`);
  });
  if (listed && entries.length === 0) {
    read.fail("YOUTUBE_PROXIES must list at least one route: direct or a proxy URL such as http://user:pass@host:port");
  }
  return {
    routes: entries.map((e) => (e.toLowerCase() === "direct" ? "direct" : e)),
    blockRetries: read.int("YOUTUBE_BLOCK_RETRIES", 3, { min: 0, max: 10 }),
    routeFailures: read.int("YOUTUBE_ROUTE_FAILURES", 3, { min: 1, max: 1_000 }),
    routeCooldownMs: read.int("YOUTUBE_ROUTE_COOLDOWN_MS", 300_000, { min: 100, max: 3_600_000 }),
  };
}

/** @returns why an entry cannot be a route, or undefined when it can */
function routeProblem(entry: string): string | undefined {
  if (entry.toLowerCase() === "direct") return undefined;
  const example = withSession(entry, "0");
  if (!URL.canParse(example)) return "must be direct or a proxy URL such as http://user:pass@host:port";
  const url = new URL(example);
  if (url.protocol === "socks5:" || url.protocol === "socks5h:" || url.protocol === "socks4:") {
    return "is a SOCKS proxy, which Bun's fetch does not support: use an http:// or https:// proxy URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return "must be direct or an http:// or https:// proxy URL";
  }
  if (!url.hostname) return "has no host";
  return undefined;
}

/** @returns the public name of a route: `direct` or `host:port`, never credentials */
export function routeLabel(route: string): string {
  if (route === "direct") return "direct";
  const url = new URL(withSession(route, "0"));
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/** Where a proxy URL asks for a session id of its own per try (sticky sessions of rotating gateways). */
export const SESSION_PLACEHOLDER = "{session}";

/** @returns the proxy URL with its `{session}` placeholders, if any, replaced by `id` */
export function withSession(route: string, id: string): string {
  return route.replaceAll(SESSION_PLACEHOLDER, id);
}
