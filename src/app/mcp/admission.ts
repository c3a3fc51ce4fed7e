/** @module Per-key admission of one MCP tool call: the admission step of every request, with MCP's identity. */
import type { KeyIdentity } from "../../domain/ports.ts";
import type { MeteredRequest } from "../../domain/usage/meter.ts";
import { describeError } from "../http/framework-errors.ts";
import type { Logger } from "../log/logger.ts";
import { type AdmissionDeps, admitRequest } from "../usage/admission.ts";

/**
 * Whom the rate limiter counts MCP calls against over stdio: the person who
 * started the process is its only caller, so there is no key; `RATE_LIMIT`
 * applies to this identity (shared by every MCP process on one Redis).
 */
export const MCP_IDENTITY: KeyIdentity = { id: "mcp:stdio", name: "MCP (stdio)" };

/** What a call's admission needs: the admission step's (the same as `POST /chat`'s), and where to log. */
export interface CallAdmissionDeps extends AdmissionDeps {
  logger: Logger;
}

/**
 * Admits one tool call (either tool, over stdio or HTTP) for its caller, after
 * its arguments were checked (an invalid call costs nothing) and before any
 * work, by the admission step `POST /chat` takes too: the key's rate limit, then its quotas.
 *
 * @param identity the caller: the API key's identity over HTTP, {@link MCP_IDENTITY} over stdio
 * @param timeoutMs the call's time limit: how long its quota holds may last
 * @param onMetered told of the call's metering (none without a meter) before a refusal is thrown (it counted it)
 * @throws {AppError} `rate_limited` with the time until the next call is admitted, or `quota_exceeded`
 */
export async function admitCall(
  deps: CallAdmissionDeps,
  identity: KeyIdentity,
  timeoutMs?: number,
  onMetered?: (metered: MeteredRequest | undefined) => void,
): Promise<void> {
  const rateLimited = identity === MCP_IDENTITY
    ? "MCP calls are over their rate limit (RATE_LIMIT)"
    : "This API key is over its rate limit";
  const admission = await admitRequest(deps, identity, { timeoutMs, rateLimited });
  onMetered?.(admission.metered);
  if (admission.refusal) throw admission.refusal;
}

/**
 * Gives back what {@link admitCall} counted, for a call the server itself turned away (`overloaded`): such a
 * call costs nothing, as on HTTP.
 */
export async function giveBackCall(deps: CallAdmissionDeps, identity: KeyIdentity): Promise<void> {
  try {
    await deps.rateLimiter.take(identity, -1);
  } catch (cause) {
    deps.logger.warn("rate_limit_settle_failed", { error: describeError(cause) });
  }
}
