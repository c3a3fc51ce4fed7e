/** @module The contract's error answer for a failed request: noted, logged when a bug, its key's budget settled. */
import type { AppError } from "../../domain/errors.ts";
import type { RateLimiter } from "../../domain/ports.ts";
import type { UsageMeter } from "../../domain/usage/meter.ts";
import { errorResponse } from "../contract/error-response.ts";
import type { Logger } from "../log/logger.ts";
import type { Exchange, Exchanges } from "./exchange.ts";
import { describeError, toAppError } from "./framework-errors.ts";
import { quotaHeaders } from "./quota-headers.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";

export interface ErrorAnswerDeps {
  rateLimiter: RateLimiter;
  usage?: UsageMeter;
  logger: Logger;
  exchanges: Exchanges;
}

/** What a failed request is answered with, for JSON answers and streams alike. */
export interface ErrorAnswers {
  /**
   * The contract's error for what a request failed with (Elysia's code names its own failures), noted on
   * the request's log line; a bug is logged with its details, which never reach the caller.
   */
  settle(code: string | number, error: unknown, exchange: Exchange): AppError;
  /** The contract's error answer for what a request failed with, with its key's RateLimit and Quota headers. */
  answer(code: string | number, error: unknown, exchange: Exchange): Promise<Response>;
}

export function createErrorAnswers(deps: ErrorAnswerDeps): ErrorAnswers {
  const settle = (code: string | number, error: unknown, exchange: Exchange): AppError => {
    const appError = toAppError(code, error, exchange.request);
    exchange.facts.errorCode = appError.code;
    if (appError.code === "internal_error") {
      deps.logger.error("unhandled_error", { request_id: exchange.requestId, error: describeError(error) });
    }
    return appError;
  };
  return {
    settle,
    async answer(code, error, exchange) {
      const appError = settle(code, error, exchange);
      const headers = { ...deps.exchanges.headers(exchange), ...exchange.limitHeaders };
      Object.assign(headers, await settleBudget(deps, exchange, appError));
      Object.assign(headers, settleUsage(deps.usage, exchange, appError));
      return errorResponse(appError, exchange.requestId, headers);
    },
  };
}

/**
 * An error after authentication carries the key's RateLimit headers too. A request refused before the
 * work (400, 413, 415) was never counted; one refused as overloaded is given back.
 *
 * @returns the RateLimit headers to add
 */
async function settleBudget(deps: ErrorAnswerDeps, exchange: Exchange, error: AppError) {
  const { identity } = exchange;
  if (!identity || (error.code !== "overloaded" && exchange.limitHeaders)) return {};
  try {
    return rateLimitHeaders(await deps.rateLimiter.take(identity, error.code === "overloaded" ? -1 : 0));
  } catch (cause) {
    deps.logger.warn("rate_limit_settle_failed", { error: describeError(cause) });
    return {};
  }
}

/**
 * A failed request costs nothing: it is counted as refused, with its code, against a known key.
 *
 * @returns the Quota headers to add
 */
function settleUsage(usage: UsageMeter | undefined, exchange: Exchange, error: AppError): Record<string, string> {
  if (!exchange.identity || !usage) return {};
  if (!exchange.metered) {
    usage.refuse(exchange.identity, error.code);
    return {};
  }
  // A caller that hung up ended the request itself: charged once admitted (see `MeteredRequest.refused`).
  exchange.metered.refused(error.code, exchange.request.signal.aborted);
  return quotaHeaders(exchange.metered.quota);
}
