/** @module Makes the youtube-transcript package's requests present the service's own client identity. */
import {
  BROWSER_USER_AGENT,
  clientContext,
  clientHeaders,
  CONSENT_IN_ADVANCE,
  type InnertubeClient,
} from "./innertube-clients.ts";

/**
 * The package sends a client identity of its own (ANDROID 20.10.38 in its 1.3 releases) and a 2020 browser's user
 * agent: YouTube retires the one with the others. Through this hook its player call presents `client` instead (the
 * context fields, user agent and `X-YouTube-Client-*` of the client table), and its other requests (watch page,
 * caption track) a current browser with the consent cookie set in advance.
 *
 * @param hook the transport's fetch hook
 * @param client the identity to present: one the primary path has not seen retired
 * @returns a fetch for the package
 */
export function presentedAs(hook: typeof fetch, client: InnertubeClient): typeof fetch {
  const presenting = (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init.headers);
    if (url.pathname === "/youtubei/v1/player" && typeof init.body === "string") {
      for (const [name, value] of Object.entries(clientHeaders(client))) headers.set(name, value);
      return hook(input, { ...init, headers, body: withClient(init.body, client) });
    }
    headers.set("user-agent", BROWSER_USER_AGENT);
    headers.set("cookie", CONSENT_IN_ADVANCE);
    return hook(input, { ...init, headers });
  };
  return presenting as typeof fetch;
}

/** @returns the package's player request body with its `context.client` replaced; the body as it was if not JSON */
function withClient(body: string, client: InnertubeClient): string {
  try {
    const parsed = JSON.parse(body) as { context?: { client?: unknown } };
    return JSON.stringify({ ...parsed, context: { ...parsed.context, client: clientContext(client) } });
  } catch {
    return body;
  }
}
