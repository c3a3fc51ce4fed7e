/** @module The Elysia app of the public port: `POST /chat`, the docs, hooks and the contract's errors. */
import { Elysia } from "elysia";
import type { AnswerOptions, ChatOutcome, ChatResponse, ChatService } from "../../domain/chat.ts";
import { type ChatInput, type ChatRequest, createChatRequest } from "../../domain/chat-request.ts";
import { AppError, type ErrorCode } from "../../domain/errors.ts";
import { linkSignals } from "../../domain/linked-signal.ts";
import type { ApiKeys, KeyIdentity, RateLimiter } from "../../domain/ports.ts";
import type { MeteredRequest, UsageMeter } from "../../domain/usage/meter.ts";
import { CHAT_RESPONSES, ChatBody } from "../contract/chat-schema.ts";
import { wantsStream } from "./accept.ts";
import { apiDocs } from "../docs/api-docs.ts";
import { errorBodyOf, errorResponse, JSON_CONTENT_TYPE } from "../contract/error-response.ts";
import { describeError, toAppError } from "./framework-errors.ts";
import { readJsonText } from "./json-body.ts";
import { checkChatBodyText, createChatRequests } from "./chat-requests.ts";
import { streamChat } from "../stream/chat-stream.ts";
import type { LiveStreams } from "../stream/live-streams.ts";
import type { Logger } from "../log/logger.ts";
import { chooseRequestId } from "./request-id.ts";
import { observeWork, type RequestFacts, type RequestNotes } from "../log/request-log.ts";
import { createCors } from "./cors.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";
import { quotaHeaders } from "./quota-headers.ts";
import { serverTiming } from "./server-timing.ts";
import { createResponseJson } from "./response-json.ts";

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
  /** Server-Sent Events on `Accept: text/event-stream` (README, Streaming); without it, every answer is JSON. */
  streams?: { live: LiveStreams; timeoutMs: number; keepAliveMs: number };
}

/** What the app keeps about one request between its hooks. */
interface Exchange {
  requestId: string;
  startedAt: number;
  identity?: KeyIdentity;
  /** RateLimit-* headers once the key's budget was consulted. */
  limitHeaders?: Record<string, string>;
  /** The request as the usage meter follows it, once it passed the key's rate limit. */
  metered?: MeteredRequest;
  /** What its log line will say, filled in place. */
  facts: RequestFacts;
}

/**
 * The HTTP surface: `POST /chat`, the docs, and the contract's errors.
 * Checks run in the contract's order: route, key, content type, size, JSON, schema.
 *
 * Every exit builds its whole Response itself (the chat handler, the error
 * handler, the docs, the preflight): no global request or response hook
 * runs, because each one costs every request, the cached answers included.
 */
export function createHttpApp(deps: HttpAppDeps) {
  const exchanges = new WeakMap<Request, Exchange>();
  const cors = createCors(deps.corsOrigins ?? []);
  const responseJson = createResponseJson();

  const exchangeOf = (request: Request): Exchange => {
    let exchange = exchanges.get(request);
    if (!exchange) {
      const requestId = chooseRequestId(request.headers.get("x-request-id"));
      const facts = deps.notes?.of(request) ?? {};
      facts.requestId = requestId;
      exchange = { requestId, startedAt: performance.now(), facts };
      exchanges.set(request, exchange);
    }
    return exchange;
  };
  /** Headers every response carries: its request id, and CORS for an allowed origin. */
  const commonHeaders = (request: Request): Record<string, string> => {
    const headers: Record<string, string> = { "x-request-id": exchangeOf(request).requestId };
    return cors.enabled ? Object.assign(headers, cors.responseHeaders(request)) : headers;
  };

  const authenticate = async (request: Request): Promise<void> => {
    const exchange = exchangeOf(request);
    const key = request.headers.get("x-api-key")?.trim();
    if (!key) throw new AppError("unauthorized", "Missing API key; send it in the x-api-key header");
    const identity = await deps.apiKeys.verify(key);
    if (!identity) throw new AppError("unauthorized", "Unknown API key; check the x-api-key header");
    exchange.identity = identity;
    exchange.facts.keyId = identity.id;
  };

  /** The key, then the body's text: an unknown caller learns nothing about validation. */
  const readChatText = async (request: Request): Promise<string> => {
    await authenticate(request);
    return await readJsonText(request, deps.maxBodyBytes, deps.bodyTimeoutMs);
  };
  const chatRequestOf = createChatRequests();

  // An error after authentication carries the key's RateLimit headers too. A request refused
  // before the work (400, 413, 415) was never counted; one refused as overloaded is given back.
  const settleBudget = async (exchange: Exchange, error: AppError, headers: Record<string, string>): Promise<void> => {
    const { identity } = exchange;
    if (!identity || (error.code !== "overloaded" && exchange.limitHeaders)) return;
    try {
      Object.assign(
        headers,
        rateLimitHeaders(await deps.rateLimiter.take(identity, error.code === "overloaded" ? -1 : 0)),
      );
    } catch (cause) {
      deps.logger.warn("rate_limit_settle_failed", { error: describeError(cause) });
    }
  };

  /** A failed request costs nothing: it is counted as refused, with its code, against a known key. */
  const settleUsage = (exchange: Exchange, error: AppError, headers: Record<string, string>): void => {
    if (!exchange.identity || !deps.usage) return;
    if (!exchange.metered) return deps.usage.refuse(exchange.identity, error.code);
    exchange.metered.refused(error.code);
    Object.assign(headers, quotaHeaders(exchange.metered.quota));
  };

  /** A cached answer's upstream timings are those of the request that made it: not logged again. */
  const noteOutcome = (request: Request, outcome: ChatOutcome): void => {
    const { facts } = exchangeOf(request);
    facts.cache = outcome.cache;
    if (outcome.cache === "hit") return;
    const { timings, usage, speech } = outcome.answer;
    Object.assign(facts, {
      work: outcome.work,
      transcriptMs: timings.transcriptMs,
      generationMs: timings.generationMs,
      usage,
      speech,
    });
  };

  /**
   * The answer as Server-Sent Events; a failure once the stream is open is its last event, and is logged as any error.
   */
  const streamed = (
    request: Request,
    chatRequest: ChatRequest,
    streams: NonNullable<HttpAppDeps["streams"]>,
  ): Promise<Response> => {
    const exchange = exchangeOf(request);
    const errorBody = (error: unknown): object =>
      errorBodyOf(settleError("UNKNOWN", error, request), exchange.requestId);
    const { metered } = exchange;
    let answered: ChatOutcome | undefined;
    return streamChat({
      headers: { ...commonHeaders(request), ...exchange.limitHeaders, ...quotaHeaders(metered?.quota) },
      keepAliveMs: streams.keepAliveMs,
      live: streams.live,
      errorBody,
      // An answer is charged when its `done` is sent; a stream that ended otherwise costs nothing.
      onEnd: (done) => done ? metered?.answered(answered!) : metered?.refused(exchange.facts.errorCode as ErrorCode),
      run: async (listener, gone) => {
        const linked = linkSignals([gone, request.signal]);
        try {
          const outcome = await deps.chat.answer(chatRequest, {
            listener,
            signal: linked.signal,
            timeoutMs: streams.timeoutMs,
            ...fetchNotes(deps.notes, request),
            admit: metered?.admit,
          });
          noteOutcome(request, outcome);
          answered = outcome;
          return outcome.response;
        } finally {
          linked.dispose();
        }
      },
    });
  };

  /**
   * The contract's error for whatever a request failed with (Elysia's code names framework failures), in one
   * place for JSON answers and streams alike: noted on the request's log line, and a bug logged with its details
   * (which never reach the caller).
   */
  const settleError = (code: string | number, error: unknown, request: Request): AppError => {
    const appError = toAppError(code, error, request);
    exchangeOf(request).facts.errorCode = appError.code;
    if (appError.code === "internal_error") {
      deps.logger.error("unhandled_error", { request_id: exchangeOf(request).requestId, error: describeError(error) });
    }
    return appError;
  };

  /** The contract's error answer for whatever a request failed with. */
  const failed = async (code: string | number, error: unknown, request: Request): Promise<Response> => {
    const exchange = exchangeOf(request);
    const appError = settleError(code, error, request);
    const headers = { ...commonHeaders(request), ...exchange.limitHeaders };
    await settleBudget(exchange, appError, headers);
    settleUsage(exchange, appError, headers);
    return errorResponse(appError, exchange.requestId, headers);
  };

  /** `POST /chat` once its key and body were checked (validated before counted: an invalid one costs nothing). */
  const answerChat = async (chatRequest: ChatRequest, request: Request): Promise<Response> => {
    const exchange = exchangeOf(request);
    const decision = await deps.rateLimiter.take(exchange.identity!);
    exchange.limitHeaders = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new AppError(
        "rate_limited",
        "This API key is over its rate limit; retry after the time in the Retry-After header",
        { retryAfterSeconds: decision.resetSeconds },
      );
    }
    const streams = deps.streams && wantsStream(request) ? deps.streams : undefined;
    // A caller without a quota is metered at once: no promise to wait for on a cached answer's path.
    const begun = deps.usage?.begin(exchange.identity!, { timeoutMs: streams?.timeoutMs });
    const metered = begun instanceof Promise ? await begun : begun;
    exchange.metered = metered;
    if (metered?.refusal) throw metered.refusal;
    exchange.facts.videoId = chatRequest.videoId;
    exchange.facts.promptLength = [...chatRequest.prompt].length;
    if (streams) return await streamed(request, chatRequest, streams);
    // The caller going away (request.signal) cancels the work, unless another caller shares it. The signal
    // is read only when there is work to wait for (Bun makes it on first read): a cached answer never needs it.
    const outcome = await deps.chat.answer(chatRequest, {
      get signal() {
        return request.signal;
      },
      ...fetchNotes(deps.notes, request),
      admit: metered?.admit,
    });
    noteOutcome(request, outcome);
    metered?.answered(outcome);
    const { timings, usage } = outcome.answer;
    const headers = commonHeaders(request);
    Object.assign(headers, exchange.limitHeaders);
    const quota = metered?.quota;
    if (quota) Object.assign(headers, quotaHeaders(quota));
    headers["content-type"] = JSON_CONTENT_TYPE;
    headers["server-timing"] = serverTiming(
      outcome.cache,
      timings,
      performance.now() - exchange.startedAt,
      usage,
      outcome.answer.speech,
    );
    return new Response(responseJson(outcome.response satisfies ChatResponse, outcome.answer, chatRequest), {
      headers,
    });
  };

  // Elysia looks for the path's "/" from index 11 of request.url by default, which skips it when the
  // Host is one to three letters (`http://api/chat`): every route would answer 404. The service only
  // ever sees `http://` URLs (it terminates no TLS), so searching from index 7 is exact and costs nothing.
  const app = new Elysia({ normalize: false, handler: { standardHostname: false } })
    .onError(({ code, error, request }) => failed(code, error, request))
    .use(apiDocs({ commonHeaders }))
    .post(
      "/chat",
      ({ body, request }) => answerChat(createChatRequest(body as ChatInput), request),
      {
        // The trailing "json" is never reached; it declares the media type to the OpenAPI document.
        parse: [async ({ request }) => checkChatBodyText(await readChatText(request)), "json"],
        body: ChatBody,
        response: CHAT_RESPONSES,
        detail: { summary: "Chat about a YouTube video", operationId: "createChat" },
      },
    )
    .all("/chat", ({ request }) => {
      const preflight = cors.preflight(request);
      if (!preflight) throw new AppError("method_not_allowed", "Only POST is allowed on /chat");
      preflight.headers.set("x-request-id", exchangeOf(request).requestId);
      return preflight;
    }, { detail: { hide: true } });

  /**
   * What the server calls: `POST /chat` (its exact path, any query) straight to the same steps as
   * the Elysia route (key, body, schema, answer; errors through the same hook), everything else
   * through Elysia, whose router and hook chain would add a few µs to every cached answer.
   */
  const serve = (
    request: Request,
  ): Promise<
    Response
  > => (request.method === "POST" && isChatPath(request.url) ? postChat(request) : Promise.resolve(app.fetch(request)));
  const postChat = async (request: Request): Promise<Response> => {
    try {
      return await answerChat(chatRequestOf(await readChatText(request)), request);
    } catch (error) {
      return await failed("UNKNOWN", error, request);
    }
  };
  return Object.assign(app, { serve });
}

/** Whether an `http://` request URL's path is exactly `/chat` (a query string may follow). */
function isChatPath(url: string): boolean {
  const start = url.indexOf("/", 7);
  return start >= 0 && url.startsWith("/chat", start) && (url.length === start + 5 || url[start + 5] === "?");
}

/** Notes what the adapters report of the request's work on its log line (the last try's route and clients stay). */
function fetchNotes(notes: RequestNotes | undefined, request: Request): Pick<AnswerOptions, "observer"> {
  return notes ? { observer: observeWork(notes.of(request)) } : {};
}
