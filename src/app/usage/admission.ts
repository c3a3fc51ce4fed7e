/** @module The one admission step of every request (JSON, SSE, MCP over stdio and HTTP): rate limit, then quotas. */
import { AppError } from "../../domain/errors.ts";
import type { KeyIdentity, RateDecision, RateLimiter } from "../../domain/ports.ts";
import type { Charging } from "../../domain/usage/account.ts";
import type { MeteredRequest, UsageMeter } from "../../domain/usage/meter.ts";
import { chargedMinutes } from "../../domain/usage/quota.ts";
import type { GeneratedAnswer } from "../../domain/chat.ts";

/** What admission needs: the per-key rate limiter, and usage per key with its quotas (none: nothing metered). */
export interface AdmissionDeps {
  rateLimiter: RateLimiter;
  usage?: UsageMeter;
}

/** A request admitted or not: the rate limit's decision (for headers), its metering, and the refusal if any. */
export interface Admission {
  decision: RateDecision;
  metered?: MeteredRequest;
  /** Set when the request must be refused (`rate_limited`, `quota_exceeded`); it was counted already. */
  refusal?: AppError;
  /** The answer cache as admission read it (see `AnswerOptions.lookedUp`), when it did. */
  lookedUp?: { answer?: GeneratedAnswer };
}

/**
 * Admits one request of `identity` before any work: the key's rate limit, then its quotas (a request under a
 * quota holds a request, or checks that a minute is left). A refusal is returned, not thrown, with what the
 * transport needs for its headers.
 *
 * @param options.timeoutMs the request's time limit: how long its holds may last
 * @param options.rateLimited the refusal's message when over the rate limit
 * @param options.lookUp the request's cached answer, read here for a caller with quotas only: its minutes are then
 *   held with the request, one hold rather than two (the answer goes on to the use case, not read again)
 */
export async function admitRequest(
  deps: AdmissionDeps,
  identity: KeyIdentity,
  options: { timeoutMs?: number; rateLimited: string; lookUp?: () => Promise<GeneratedAnswer | undefined> },
): Promise<Admission> {
  const decision = await deps.rateLimiter.take(identity);
  if (!decision.allowed) {
    const refusal = new AppError("rate_limited", options.rateLimited, { retryAfterSeconds: decision.resetSeconds });
    return { decision, refusal };
  }
  const lookedUp = options.lookUp && deps.usage?.meters(identity) ? { answer: await options.lookUp() } : undefined;
  const minutes = lookedUp?.answer && chargedMinutes(lookedUp.answer.videoSeconds, lookedUp.answer.characters);
  const metered = await deps.usage?.begin(identity, { timeoutMs: options.timeoutMs, minutes });
  return { decision, metered, refusal: metered?.refusal, lookedUp };
}

/**
 * How the use case charges an admitted request: its quota holds the video's minutes before the work spends
 * upstream, and what the work spends is recorded against its key at once, whether the caller waits or not.
 */
export function charging(metered: MeteredRequest | undefined): Charging {
  return metered
    ? { admit: metered.admit, spend: metered.spend, working: metered.working, chargeFailure: metered.chargeFailure }
    : {};
}
