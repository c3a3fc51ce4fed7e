/** @module `POST /chat`: the key, the body, the request rules, the work and the answer, one named step each. */
import type { AnswerOptions, ChatOutcome, ChatService, GeneratedAnswer } from "../../domain/chat.ts";
import type { ChatRequest } from "../../domain/chat-request.ts";
import { AppError, type ErrorCode } from "../../domain/errors.ts";
import { linkSignals } from "../../domain/linked-signal.ts";
import type { ApiKeys, RateLimiter } from "../../domain/ports.ts";
import type { UsageMeter } from "../../domain/usage/meter.ts";
import type { TranscriptCut } from "../../domain/transcript.ts";
import { errorBodyOf, JSON_CONTENT_TYPE } from "../contract/error-response.ts";
import { observeWork, type RequestNotes } from "../log/request-log.ts";
import { streamChat } from "../stream/chat-stream.ts";
import type { LiveStreams } from "../stream/live-streams.ts";
import { wantsStream } from "./accept.ts";
import { createChatRequests } from "./chat-requests.ts";
import type { ErrorAnswers } from "./error-answer.ts";
import type { Exchange, Exchanges } from "./exchange.ts";
import { readJsonText } from "./json-body.ts";
import { quotaHeaders } from "./quota-headers.ts";
import { admitRequest, charging } from "../usage/admission.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";
import { serverTiming } from "./server-timing.ts";

/** Server-Sent Events on `Accept: text/event-stream`: the streams open, their time limit and keep-alive. */
export interface ChatStreams {
  live: LiveStreams;
  timeoutMs: number;
  keepAliveMs: number;
}

export interface ChatHandlerDeps {
  chat: ChatService;
  apiKeys: ApiKeys;
  rateLimiter: RateLimiter;
  /** Usage per key and its quotas; without it nothing is metered. */
  usage?: UsageMeter;
  maxBodyBytes: number;
  /** How long a request body may take to arrive (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs?: number;
  /** Receives what the request log needs (key id, video id, cache, timings, usage, YouTube's route, error code). */
  notes?: RequestNotes;
  /** Server-Sent Events on `Accept: text/event-stream` (README, "Streaming"); without them, every answer is JSON. */
  streams?: ChatStreams;
  exchanges: Exchanges;
  errors: ErrorAnswers;
}

/**
 * `POST /chat`, in the contract's order: the key (an unknown caller learns nothing about validation),
 * the body (content type, size, JSON), the request rules (schema, URL, defaults), then the key's rate
 * limit and quota (a request refused before costs nothing), the work, and the answer: JSON, or a stream.
 * Every failure is answered by `errors`.
 */
export function createChatHandler(deps: ChatHandlerDeps): (request: Request) => Promise<Response> {
  const requestOf = createChatRequests();
  return async (request) => {
    const exchange = deps.exchanges.of(request);
    try {
      await verifyKey(deps.apiKeys, exchange);
      const text = await readJsonText(request, deps.maxBodyBytes, deps.bodyTimeoutMs);
      const chatRequest = requestOf(text);
      const streams = deps.streams && wantsStream(request) ? deps.streams : undefined;
      await admit(deps, exchange, streams?.timeoutMs, () => deps.chat.cached(chatRequest));
      exchange.facts.videoId = chatRequest.videoId;
      exchange.facts.promptLength = [...chatRequest.prompt].length;
      if (streams) return await streamed(deps, exchange, chatRequest, streams);
      const outcome = await work(deps, exchange, chatRequest);
      return answer(deps.exchanges, exchange, outcome, JSON.stringify(outcome.response));
    } catch (error) {
      return await deps.errors.answer("UNKNOWN", error, exchange);
    }
  };
}

async function verifyKey(apiKeys: ApiKeys, exchange: Exchange): Promise<void> {
  const key = exchange.request.headers.get("x-api-key")?.trim();
  if (!key) throw new AppError("unauthorized", "Missing API key; send it in the x-api-key header");
  const identity = await apiKeys.verify(key);
  if (!identity) throw new AppError("unauthorized", "Unknown API key; check the x-api-key header");
  exchange.identity = identity;
  exchange.facts.keyId = identity.id;
}

/** The key's rate limit, then its quotas (the admission step every transport shares): a refusal is thrown. */
async function admit(
  deps: ChatHandlerDeps,
  exchange: Exchange,
  timeoutMs: number | undefined,
  lookUp: () => Promise<GeneratedAnswer | undefined>,
): Promise<void> {
  const admission = await admitRequest(deps, exchange.identity!, { timeoutMs, rateLimited: RATE_LIMITED, lookUp });
  exchange.limitHeaders = rateLimitHeaders(admission.decision);
  exchange.metered = admission.metered;
  exchange.lookedUp = admission.lookedUp;
  if (admission.refusal) throw admission.refusal;
}

const RATE_LIMITED = "This API key is over its rate limit; retry after the time in the Retry-After header";

/** The answer, from the cache, shared with an equal request, or generated; charged to the key. */
async function work(deps: ChatHandlerDeps, exchange: Exchange, chatRequest: ChatRequest): Promise<ChatOutcome> {
  const { request, metered } = exchange;
  // The caller going away (request.signal) cancels the work, unless another caller shares it. The signal
  // is read only when there is work to wait for (Bun makes it on first read): a cached answer never needs it.
  const outcome = await deps.chat.answer(chatRequest, {
    get signal() {
      return request.signal;
    },
    ...fetchNotes(deps.notes, request),
    ...charging(metered),
    holder: exchange.identity?.id,
    lookedUp: exchange.lookedUp,
  });
  noteOutcome(exchange, outcome);
  metered?.answered(outcome);
  return outcome;
}

/** The 200 with its JSON body, the key's RateLimit and Quota headers, and Server-Timing. */
function answer(exchanges: Exchanges, exchange: Exchange, outcome: ChatOutcome, json: string): Response {
  const { timings, usage, speech } = outcome.answer;
  const headers = exchanges.headers(exchange);
  Object.assign(headers, exchange.limitHeaders);
  const quota = exchange.metered?.quota;
  if (quota) Object.assign(headers, quotaHeaders(quota));
  headers["content-type"] = JSON_CONTENT_TYPE;
  const totalMs = performance.now() - exchange.startedAt;
  headers["server-timing"] = serverTiming(outcome.cache, timings, totalMs, usage, speech);
  if (outcome.answer.cut) headers["transcript-cut"] = transcriptCutHeader(outcome.answer.cut);
  return new Response(json, { headers });
}

/** The answer as Server-Sent Events; a failure once the stream is open is its last event, logged as any error. */
function streamed(
  deps: ChatHandlerDeps,
  exchange: Exchange,
  chatRequest: ChatRequest,
  streams: ChatStreams,
): Promise<Response> {
  const { request, metered } = exchange;
  let answered: ChatOutcome | undefined;
  let callerLeft: AbortSignal | undefined;
  return streamChat({
    headers: { ...deps.exchanges.headers(exchange), ...exchange.limitHeaders, ...quotaHeaders(metered?.quota) },
    keepAliveMs: streams.keepAliveMs,
    live: streams.live,
    errorBody: (error) => errorBodyOf(deps.errors.settle("UNKNOWN", error, exchange), exchange.requestId),
    // An answer is charged when its `done` is sent; a stream that ended otherwise is charged only once admitted to
    // the video's minutes and given up by its caller (see `MeteredRequest.refused`).
    onEnd: (done) =>
      done
        ? metered?.answered(answered!)
        : metered?.refused(exchange.facts.errorCode as ErrorCode, callerLeft?.aborted || request.signal.aborted),
    run: async (listener, gone) => {
      callerLeft = gone;
      const linked = linkSignals([gone, request.signal]);
      try {
        const options = {
          listener,
          signal: linked.signal,
          timeoutMs: streams.timeoutMs,
          ...charging(metered),
          holder: exchange.identity?.id,
          lookedUp: exchange.lookedUp,
        };
        answered = await deps.chat.answer(chatRequest, { ...options, ...fetchNotes(deps.notes, request) });
        noteOutcome(exchange, answered);
        return answered.response;
      } finally {
        linked.dispose();
      }
    },
  });
}

/** A cached answer's upstream timings are those of the request that made it: not logged again. */
function noteOutcome(exchange: Exchange, outcome: ChatOutcome): void {
  const { facts } = exchange;
  facts.cache = outcome.cache;
  if (outcome.cache === "hit") {
    // The answer's model is kept with it: a hit says which model wrote it, not that a model was asked.
    if (outcome.answer.usage?.model !== undefined) facts.model = outcome.answer.usage.model;
    return;
  }
  const { timings, usage, speech } = outcome.answer;
  Object.assign(facts, {
    work: outcome.work,
    transcriptMs: timings.transcriptMs,
    generationMs: timings.generationMs,
    usage,
    speech,
    cut: outcome.answer.cut,
  });
}

/** `Transcript-Cut`: where the reading stopped (seconds) and the whole track's cues and characters. */
function transcriptCutHeader(cut: TranscriptCut): string {
  return `until=${Math.floor(cut.keptUntilSeconds)}; cues=${cut.cues}; characters=${cut.characters}`;
}

/** Tells the request's log line what the adapters report of its own work (routes, clients, the writer's requests). */
function fetchNotes(notes: RequestNotes | undefined, request: Request): Pick<AnswerOptions, "observer"> {
  return notes ? { observer: observeWork(notes.of(request)) } : {};
}
