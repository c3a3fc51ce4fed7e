/** @module CORS for the origins in `CORS_ORIGINS`: response headers and preflight handling. */
const EXPOSED = "x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, server-timing, " +
  "quota-limit, quota-remaining, quota-reset, quota-policy";

/**
 * CORS for the origins in `CORS_ORIGINS`. Off (no headers, preflight is 405)
 * when the list is empty; only listed origins are ever echoed.
 */
export function createCors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, "").toLowerCase()));
  const originOf = (request: Request): string | undefined => {
    const origin = request.headers.get("origin");
    return origin && allowed.has(origin.toLowerCase()) ? origin : undefined;
  };
  return {
    /** Whether any origin is allowed: when not, no request needs looking at. */
    enabled: allowed.size > 0,
    /** Headers every response to an allowed origin carries. */
    responseHeaders(request: Request): Record<string, string> {
      const origin = originOf(request);
      return origin
        ? { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED, vary: "origin" }
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
          "access-control-allow-methods": "POST",
          "access-control-allow-headers": "content-type, x-api-key, x-request-id",
          "access-control-max-age": "600",
        },
      });
    },
  };
}
