/** @module Per-key admission of one MCP tool call: the caller's rate limit, the one place a call is counted. */
import { AppError } from "../../domain/errors.ts";
import type { KeyIdentity, RateLimiter } from "../../domain/ports.ts";
import { describeError } from "../http/framework-errors.ts";
import type { Logger } from "../log/logger.ts";

/**
 * Whom the rate limiter counts MCP calls against over stdio: the person who
 * started the process is its only caller, so there is no key; `RATE_LIMIT`
 * applies to this identity (shared by every MCP process on one Redis).
 */
export const MCP_IDENTITY: KeyIdentity = { id: "mcp:stdio", name: "MCP (stdio)" };

/** What admission needs: the per-key rate limiter (the same one `POST /chat` uses). */
export interface AdmissionDeps {
  rateLimiter: RateLimiter;
  logger: Logger;
}

/**
 * Admits one tool call (either tool, over stdio or HTTP) for its caller, after
 * its arguments were checked (an invalid call costs nothing) and before any
 * work. Every per-key check of a call happens here and nowhere else: today the
 * key's rate limit; usage quotas per key belong here too, after it.
 *
 * @param identity the caller: the API key's identity over HTTP, {@link MCP_IDENTITY} over stdio
 * @throws {AppError} `rate_limited` with the time until the next call is admitted
 */
export async function admitCall(deps: AdmissionDeps, identity: KeyIdentity): Promise<void> {
  const decision = await deps.rateLimiter.take(identity);
  if (decision.allowed) return;
  const message = identity === MCP_IDENTITY
    ? "MCP calls are over their rate limit (RATE_LIMIT)"
    : "This API key is over its rate limit";
  throw new AppError("rate_limited", message, { retryAfterSeconds: decision.resetSeconds });
}

/**
 * Gives back what {@link admitCall} counted, for a call the server itself turned away (`overloaded`): such a
 * call costs nothing, as on HTTP.
 */
export async function giveBackCall(deps: AdmissionDeps, identity: KeyIdentity): Promise<void> {
  try {
    await deps.rateLimiter.take(identity, -1);
  } catch (cause) {
    deps.logger.warn("rate_limit_settle_failed", { error: describeError(cause) });
  }
}
