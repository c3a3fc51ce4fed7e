/** @module The HTTP app of the public port: `POST /chat` by its handler, the docs and every other path by Elysia. */
import { Elysia } from "elysia";
import type { ChatService } from "../../domain/chat.ts";
import { AppError } from "../../domain/errors.ts";
import type { ApiKeys, RateLimiter } from "../../domain/ports.ts";
import type { UsageMeter } from "../../domain/usage/meter.ts";
import { apiDocs } from "../docs/api-docs.ts";
import type { Logger } from "../log/logger.ts";
import type { RequestNotes } from "../log/request-log.ts";
import { type ChatStreams, createChatHandler } from "./chat-handler.ts";
import { type Cors, createCors } from "./cors.ts";
import { createErrorAnswers, type ErrorAnswers } from "./error-answer.ts";
import { createExchanges, type Exchanges } from "./exchange.ts";

export interface HttpAppDeps {
  chat: ChatService;
  apiKeys: ApiKeys;
  rateLimiter: RateLimiter;
  /** Usage per key and its quotas; without it nothing is metered. */
  usage?: UsageMeter;
  maxBodyBytes: number;
  /** How long a request body may take to arrive (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs?: number;
  logger: Logger;
  /** Origins allowed to call from a browser (`CORS_ORIGINS`); none by default. */
  corsOrigins?: readonly string[];
  /** Receives what the request log needs (key id, video id, cache, timings, usage, error code). */
  notes?: RequestNotes;
  /** Server-Sent Events on `Accept: text/event-stream` (README, "Streaming"); without it, every answer is JSON. */
  streams?: ChatStreams;
}

/** The service's HTTP surface, as a runtime's server calls it. */
export interface HttpApp {
  fetch(request: Request): Promise<Response>;
}

/**
 * The HTTP surface: `POST /chat` (its exact path, any query) goes straight to its handler; the docs, a
 * CORS preflight, another method on `/chat` and any other path go through Elysia. Elysia's router would
 * add a few µs to every cached answer (bench/README.md), and `POST /chat` needs none of it.
 *
 * Every exit builds its whole Response itself: no global request or response hook runs, because each one
 * costs every request, the cached answers included.
 */
export function createHttpApp(deps: HttpAppDeps): HttpApp {
  const cors = createCors(deps.corsOrigins ?? []);
  const exchanges = createExchanges({ notes: deps.notes, cors });
  const errors = createErrorAnswers({ ...deps, exchanges });
  const postChat = createChatHandler({ ...deps, exchanges, errors });
  const elysia = otherRoutes({ cors, exchanges, errors });
  return {
    fetch: (request) =>
      request.method === "POST" && isChatPath(request.url) ? postChat(request) : Promise.resolve(elysia.fetch(request)),
  };
}

/** The docs, `/chat` by any other method (a preflight, else 405), and 404 for any other path. */
function otherRoutes(parts: { cors: Cors; exchanges: Exchanges; errors: ErrorAnswers }) {
  const { cors, exchanges, errors } = parts;
  // Elysia looks for the path's "/" from index 11 of request.url by default, which skips it when the
  // Host is one to three letters (`http://api/chat`): every route would answer 404. The service only
  // ever sees `http://` URLs (it terminates no TLS), so searching from index 7 is exact and costs nothing.
  return new Elysia({ normalize: false, handler: { standardHostname: false } })
    .onError(({ code, error, request }) => errors.answer(code, error, exchanges.of(request)))
    .use(apiDocs({ commonHeaders: (request) => exchanges.headers(exchanges.of(request)) }))
    .all("/chat", ({ request }) => {
      const preflight = cors.preflight(request);
      if (!preflight) throw new AppError("method_not_allowed", "Only POST is allowed on /chat");
      preflight.headers.set("x-request-id", exchanges.of(request).requestId);
      return preflight;
    });
}

/** Whether an `http://` request URL's path is `/chat`, or `/chat/` as Elysia's routes take it (a query may follow). */
function isChatPath(url: string): boolean {
  const start = url.indexOf("/", 7);
  if (start < 0 || !url.startsWith("/chat", start)) return false;
  const end = url[start + 5] === "/" ? start + 6 : start + 5;
  return url.length === end || url[end] === "?";
}
