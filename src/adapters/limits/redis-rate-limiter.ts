/** @module Per-key token-bucket rate limiting in Redis, run atomically as a Lua script. */
import type { KeyIdentity, RateDecision, RateLimiter } from "../../domain/ports.ts";
import { type Budget, UNLIMITED } from "./memory-rate-limiter.ts";
import type { RedisConnection } from "../redis/redis-connection.ts";

/**
 * The token bucket rule of `takeTokens()` (memory-rate-limiter.ts), run
 * atomically inside Redis with Redis's own clock, so every instance shares
 * one bucket per key. Numbers are passed back as integers (Lua numbers are
 * truncated on the way out): [allowed, remaining, resetMs].
 */
const TAKE_TOKENS = `
local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local per_ms = limit / window_ms
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then tokens = limit; at = now end
tokens = math.min(limit, tokens + math.max(0, now - at) * per_ms)
local allowed = 1
if cost > 0 then
  if tokens >= cost then tokens = tokens - cost else allowed = 0 end
else
  tokens = math.min(limit, tokens - cost)
end
local reset_ms
if allowed == 1 then reset_ms = (limit - tokens) / per_ms else reset_ms = (cost - tokens) / per_ms end
if cost ~= 0 then
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%d', now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((limit - tokens) / per_ms) + 1000)
end
return {allowed, math.floor(tokens), math.ceil(reset_ms)}
`;

/**
 * Per-key token buckets in Redis, correct across instances: each request is
 * one atomic script call. When Redis is unreachable, `failure` decides:
 * `open` counts the request in this instance's own buckets (`fallback`), so
 * each instance still enforces the limit on its own; `closed` refuses it
 * with 429 and a short Retry-After.
 *
 * @param options.connection the shared Redis connection
 * @param options.budgetFor the key's budget (its own, else the default), undefined for unlimited
 * @param options.failure what to do while Redis is unreachable
 * @param options.fallback the limiter used while Redis is unreachable with `open`
 */
export function createRedisRateLimiter(options: {
  connection: RedisConnection;
  budgetFor: (identity: KeyIdentity) => Budget | undefined;
  failure: "open" | "closed";
  fallback: RateLimiter;
}): RateLimiter {
  const { connection } = options;
  let sha: Promise<string> | undefined;

  const run = async (key: string, args: (string | number)[]): Promise<[number, number, number]> => {
    sha ??= sha1Hex(TAKE_TOKENS);
    const digest = await sha;
    return await connection.run(async (client) => {
      try {
        return (await client.evalsha(digest, 1, key, ...args)) as [number, number, number];
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return (await client.eval(TAKE_TOKENS, 1, key, ...args)) as [number, number, number];
      }
    });
  };

  return {
    async take(identity, cost = 1) {
      const budget = options.budgetFor(identity);
      if (!budget) return UNLIMITED;
      const key = `${connection.prefix}rate:${identity.id}:${budget.limit}/${budget.windowSeconds}`;
      try {
        const [allowed, remaining, resetMs] = await run(key, [budget.limit, budget.windowSeconds * 1000, cost]);
        return { allowed: allowed === 1, limit: budget.limit, remaining, resetSeconds: resetMs / 1000 };
      } catch {
        if (options.failure === "open") return await options.fallback.take(identity, cost);
        return refusedWhileDown(budget, cost);
      }
    },
  };
}

function refusedWhileDown(budget: Budget, cost: number): RateDecision {
  return { allowed: cost <= 0, limit: budget.limit, remaining: 0, resetSeconds: 5 };
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
