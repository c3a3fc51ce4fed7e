/** @module The token-bucket rule and per-key rate limiting in process memory. */
import type { KeyIdentity, RateDecision, RateLimiter } from "../../domain/ports.ts";

/** A budget: `limit` requests per `windowSeconds`. */
export interface Budget {
  limit: number;
  windowSeconds: number;
}

/** A bucket's state: `tokens` left at `atMs`. */
export interface Bucket {
  tokens: number;
  atMs: number;
}

/** The decision for a key without a limit: no RateLimit headers. */
export const UNLIMITED: RateDecision = { allowed: true, remaining: Number.POSITIVE_INFINITY, resetSeconds: 0 };

/**
 * The token bucket rule (the Redis limiter's Lua script is the same rule):
 * a bucket holds up to `limit` tokens, refills at `limit / windowSeconds`
 * per second, and a request takes `cost` tokens when there are enough.
 *
 * @param budget the key's budget
 * @param bucket the state before, or undefined for a full bucket
 * @param cost tokens to take (0 to look, negative to give back)
 * @param nowMs the time of the request
 * @returns the decision and the state after
 */
export function takeTokens(
  budget: Budget,
  bucket: Bucket | undefined,
  cost: number,
  nowMs: number,
): { decision: RateDecision; bucket: Bucket } {
  const perMs = budget.limit / (budget.windowSeconds * 1000);
  const elapsed = bucket ? Math.max(0, nowMs - bucket.atMs) : 0;
  let tokens = Math.min(budget.limit, (bucket?.tokens ?? budget.limit) + elapsed * perMs);
  let allowed = true;
  if (cost > 0 && tokens >= cost) tokens -= cost;
  else if (cost > 0) allowed = false;
  else tokens = Math.min(budget.limit, tokens - cost);
  const resetMs = allowed ? (budget.limit - tokens) / perMs : (cost - tokens) / perMs;
  return {
    decision: { allowed, limit: budget.limit, remaining: Math.floor(tokens), resetSeconds: resetMs / 1000 },
    bucket: { tokens, atMs: nowMs },
  };
}

/**
 * Per-key token buckets in process memory, for a single instance. At most
 * `maxKeys` buckets are kept (least recently used dropped first; a dropped
 * bucket starts full again).
 *
 * @param options.budgetFor the key's budget (its own, else the default), undefined for unlimited
 * @param options.now clock in ms, swappable in tests
 * @param options.maxKeys bound on the buckets kept (default 100 000)
 */
export function createMemoryRateLimiter(
  options: { budgetFor: (identity: KeyIdentity) => Budget | undefined; now?: () => number; maxKeys?: number },
): RateLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  const buckets = new Map<string, Bucket>();
  return {
    async take(identity, cost = 1) {
      const budget = options.budgetFor(identity);
      if (!budget) return UNLIMITED;
      const id = `${identity.id}|${budget.limit}/${budget.windowSeconds}`;
      const before = buckets.get(id);
      const { decision, bucket } = takeTokens(budget, before, cost, now());
      if (cost !== 0) {
        buckets.delete(id);
        buckets.set(id, bucket);
        if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      }
      return decision;
    },
  };
}
