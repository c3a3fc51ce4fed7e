/** @module CORS for the origins in `CORS_ORIGINS`: response headers and preflight handling. */
const EXPOSED = "x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, server-timing, " +
  "quota-limit, quota-remaining, quota-reset, quota-policy, transcript-cut";

/** What an endpoint lets a browser do: the methods and request headers a preflight allows, the headers it may read. */
export interface CorsRules {
  methods: string;
  allowHeaders: string;
  exposeHeaders: string;
}

const CHAT_RULES: CorsRules = {
  methods: "POST",
  allowHeaders: "content-type, x-api-key, x-request-id",
  exposeHeaders: EXPOSED,
};

/**
 * CORS for the origins in `CORS_ORIGINS`. Off (no headers, preflight is 405)
 * when the list is empty; only listed origins are ever echoed.
 *
 * @param rules what a preflight allows; `POST /chat`'s by default
 */
export function createCors(allowedOrigins: readonly string[], rules: CorsRules = CHAT_RULES) {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, "").toLowerCase()));
  const originOf = (request: Request): string | undefined => {
    const origin = request.headers.get("origin");
    return origin && allowed.has(origin.toLowerCase()) ? origin : undefined;
  };
  return {
    /** Whether any origin is allowed: when not, no request needs looking at. */
    enabled: allowed.size > 0,
    /** Whether a browser page of `origin` may call (it is listed). */
    allows(origin: string): boolean {
      return allowed.has(origin.toLowerCase());
    },
    /** Headers every response to an allowed origin carries. */
    responseHeaders(request: Request): Record<string, string> {
      const origin = originOf(request);
      return origin
        ? {
          "access-control-allow-origin": origin,
          "access-control-expose-headers": rules.exposeHeaders,
          vary: "origin",
        }
        : {};
    },
    /** @returns the answer to a preflight from an allowed origin, or undefined when it is not one */
    preflight(request: Request): Response | undefined {
      if (request.method !== "OPTIONS" || !originOf(request) || !request.headers.get("access-control-request-method")) {
        return undefined;
      }
      return new Response(null, {
        status: 204,
        headers: {
          ...this.responseHeaders(request),
          "access-control-allow-methods": rules.methods,
          "access-control-allow-headers": rules.allowHeaders,
          "access-control-max-age": "600",
        },
      });
    },
  };
}

/** CORS as {@link createCors} makes it. */
export type Cors = ReturnType<typeof createCors>;
