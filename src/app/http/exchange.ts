/** @module One request as the HTTP app follows it: its id, its caller once known, and its log line's facts. */
import type { GeneratedAnswer } from "../../domain/chat.ts";
import type { KeyIdentity } from "../../domain/ports.ts";
import type { MeteredRequest } from "../../domain/usage/meter.ts";
import type { RequestFacts, RequestNotes } from "../log/request-log.ts";
import type { Cors } from "./cors.ts";
import { chooseRequestId } from "./request-id.ts";

/** What the app keeps about one request while answering it. */
export interface Exchange {
  request: Request;
  requestId: string;
  startedAt: number;
  /** The caller, once its key was verified. */
  identity?: KeyIdentity;
  /** RateLimit-* headers once the key's budget was consulted. */
  limitHeaders?: Record<string, string>;
  /** The request as the usage meter follows it, once it passed the key's rate limit. */
  metered?: MeteredRequest;
  /** The answer cache as admission read it (a caller with quotas): passed on, not read again. */
  lookedUp?: { answer?: GeneratedAnswer };
  /** What its log line will say, filled in place. */
  facts: RequestFacts;
}

/** The exchanges of the requests being answered, and the headers every response carries. */
export interface Exchanges {
  /** The request's exchange, begun when first asked for: a handler and the error hook share it. */
  of(request: Request): Exchange;
  /** Headers every response carries: its request id, and CORS for an allowed origin. */
  headers(exchange: Exchange): Record<string, string>;
}

/**
 * @param options.notes where the request log's facts are kept, when there is a log
 * @param options.cors the origins allowed to call from a browser
 */
export function createExchanges(options: { notes?: RequestNotes; cors: Cors }): Exchanges {
  const { notes, cors } = options;
  const known = new WeakMap<Request, Exchange>();
  return {
    of(request) {
      let exchange = known.get(request);
      if (!exchange) {
        const requestId = chooseRequestId(request.headers.get("x-request-id"));
        const facts = notes?.of(request) ?? {};
        facts.requestId = requestId;
        exchange = { request, requestId, startedAt: performance.now(), facts };
        known.set(request, exchange);
      }
      return exchange;
    },
    headers(exchange) {
      const headers: Record<string, string> = { "x-request-id": exchange.requestId };
      return cors.enabled ? Object.assign(headers, cors.responseHeaders(exchange.request)) : headers;
    },
  };
}
