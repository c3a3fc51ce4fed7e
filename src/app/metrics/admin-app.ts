/** @module The admin port's handler: `/healthz`, `/readyz` and Prometheus `/metrics`. */
import type { Readiness } from "./readiness.ts";
import type { ServiceMetrics } from "./service-metrics.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The admin port's handler: `GET /healthz` (liveness: the process serves),
 * `GET /readyz` (readiness, 503 with the reason) and `GET /metrics`
 * (Prometheus text format). Served on its own listener, never on the public
 * port; a plain handler rather than an Elysia app, as it has three routes
 * and nothing to validate.
 *
 * @param deps the readiness state and the metrics to expose
 * @returns a fetch handler
 */
export function createAdminHandler(
  deps: { readiness: Readiness; metrics: ServiceMetrics },
): (request: Request) => Promise<Response> {
  return async (request) => {
    const path = pathOf(request.url);
    if (path !== "/healthz" && path !== "/readyz" && path !== "/metrics") {
      return json(404, {
        error: { code: "not_found", message: "The admin port serves GET /healthz, /readyz and /metrics" },
      });
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return json(405, { error: { code: "method_not_allowed", message: `Only GET is allowed on ${path}` } }, {
        allow: "GET, HEAD",
      });
    }
    if (path === "/healthz") return json(200, { status: "ok" });
    if (path === "/readyz") {
      const verdict = deps.readiness.check();
      return verdict.ready
        ? json(200, { status: "ready" })
        : json(503, { status: "not_ready", reason: verdict.reason, message: verdict.message });
    }
    try {
      return new Response(await deps.metrics.render(), {
        headers: { "content-type": deps.metrics.contentType, "cache-control": "no-store" },
      });
    } catch (error) {
      return json(500, {
        error: {
          code: "internal_error",
          message: `Could not collect the metrics: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
    }
  };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store", ...headers },
  });
}

function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : url;
}
