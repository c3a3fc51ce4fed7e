/** @module The LLM budget's Redis hash read without a script: a look at the budget in one command. */
import type { RedisConnection } from "../../redis/redis-connection.ts";
import type { BudgetView } from "./budget-store.ts";
import { bucket, type BucketState, type Limits } from "./token-bucket.ts";

/** The hash's fields, in the order the script reads them (`s[1]` is `tpm`). */
export const BUDGET_FIELDS = [
  "tpm",
  "rpm",
  "tokens",
  "requests",
  "at",
  "blocked",
  "tpd",
  "rpd",
  "dtokens",
  "drequests",
  "dblocked",
  "tpd_stated",
  "expires_set",
] as const;

/**
 * Reads the budget as the script's peek would, at `now` on Redis's clock as the instances read it
 * (`redisClockOf`): a look writes nothing, so it needs no script, only an `HMGET`.
 *
 * @param assumed the limits assumed until the provider states its own (the script's ARGV)
 */
export async function lookAtHash(
  connection: RedisConnection,
  key: string,
  assumed: Limits,
  windowMs: number,
  now: number,
): Promise<BudgetView> {
  const fields = await connection.run((c) => c.hmget(key, ...BUDGET_FIELDS));
  return viewOfHash(fields, now, assumed, windowMs);
}

/** The script's defaults and refill (see SCRIPT in redis-budget-store.ts), on the hash's fields. */
function viewOfHash(fields: (string | null)[], now: number, assumed: Limits, windowMs: number): BudgetView {
  const field = (name: (typeof BUDGET_FIELDS)[number]) => {
    const text = fields[BUDGET_FIELDS.indexOf(name)];
    return text === null || text === undefined ? undefined : Number(text);
  };
  const stated = (limit: number | undefined) => (limit !== undefined && limit > 0 ? limit : undefined);
  const limits: Limits = {
    tokensPerWindow: field("tpm") ?? assumed.tokensPerWindow,
    requestsPerWindow: field("rpm") ?? assumed.requestsPerWindow,
    tokensPerDay: stated(field("tpd") ?? assumed.tokensPerDay),
    requestsPerDay: stated(field("rpd") ?? assumed.requestsPerDay),
  };
  const stored: BucketState = {
    tokens: field("tokens") ?? limits.tokensPerWindow,
    requests: field("requests") ?? limits.requestsPerWindow,
    at: field("at") ?? now,
    blockedUntil: field("blocked") ?? 0,
    dayTokens: field("dtokens") ?? limits.tokensPerDay ?? 0,
    dayRequests: field("drequests") ?? limits.requestsPerDay ?? 0,
    dayBlockedUntil: field("dblocked") ?? 0,
  };
  const state = bucket.refill(stored, limits, windowMs, now);
  return {
    tokens: Math.floor(state.tokens),
    limits,
    blockedMs: Math.max(0, state.blockedUntil - now),
    windowMs,
    dayTokens: Math.floor(state.dayTokens),
    dayRequests: Math.floor(state.dayRequests),
    dayBlockedMs: Math.max(0, state.dayBlockedUntil - now),
  };
}
