/** @module The HTTP app of the public port: `POST /chat` by its handler, the docs and every other path by Elysia. */
import { Elysia } from "elysia";
import { AppError } from "../../domain/errors.ts";
import { apiDocs } from "../docs/api-docs.ts";
import type { Logger } from "../log/logger.ts";
import { type ChatHandlerDeps, createChatHandler } from "./chat-handler.ts";
import { type Cors, createCors } from "./cors.ts";
import { createErrorAnswers, type ErrorAnswers } from "./error-answer.ts";
import { createExchanges, type Exchanges } from "./exchange.ts";

/** What `POST /chat` needs (its handler's deps but the parts the app makes), the log and CORS. */
export interface HttpAppDeps extends Omit<ChatHandlerDeps, "exchanges" | "errors"> {
  logger: Logger;
  /** Origins allowed to call from a browser (`CORS_ORIGINS`); none by default. */
  corsOrigins?: readonly string[];
}

/** The service's HTTP surface, as a runtime's server calls it. */
export interface HttpApp {
  fetch(request: Request): Promise<Response>;
}

/**
 * The HTTP surface: `POST /chat` (or `/chat/`, any query) goes straight to its handler; the docs, a CORS
 * preflight, another method on `/chat` and any other path go through Elysia. Elysia's route and hooks
 * would add about 10 µs to every cached answer (docs/decisions.md), and `POST /chat` needs none of them.
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
