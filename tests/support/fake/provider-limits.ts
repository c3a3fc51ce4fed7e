/** @module Groq's published rate limiting played on loopback, for the fake LLM: per minute and per day. */
import llama3Tokenizer from "llama3-tokenizer-js";

/** Budgets a provider enforces, as Groq's plans do (per minute and per day; tests shorten the window). */
export interface ProviderLimitsOptions {
  tokensPerWindow: number;
  requestsPerWindow: number;
  windowMs: number;
  /** The day's limits (TPD, RPD); the day is 1,440 windows. No TPD by default; RPD 1,000 (Groq's free plan). */
  tokensPerDay?: number;
  requestsPerDay?: number;
  /** Tokens of the day already used by others when the fake starts. */
  dayTokensUsed?: number;
  model?: string;
}

/**
 * Groq's free plan for `openai/gpt-oss-20b` in late 2026 (its rate-limits page, read 2026-10-01): 8,000 tokens and 30
 * requests a minute, 200,000 tokens and 1,000 requests a day.
 *
 * @param windowMs the minute, as the test plays it
 */
export function gptOss20bFreePlan(windowMs: number): ProviderLimitsOptions {
  return {
    tokensPerWindow: 8_000,
    requestsPerWindow: 30,
    tokensPerDay: 200_000,
    requestsPerDay: 1_000,
    windowMs,
    model: "openai/gpt-oss-20b",
  };
}

/** One call the provider took and charged. */
export interface Charge {
  at: number;
  tokens: number;
}

/** What the provider decides for one call. */
export type Verdict =
  | { ok: true; promptTokens: number; charged: number; headers: Record<string, string> }
  | { ok: false; status: 413 | 429; body: unknown; headers: Record<string, string> };

/** Tokens of a chat as Llama 3 counts them: each message's text and its chat-template markers. */
export function llamaPromptTokens(messages: readonly { content: string }[]): number {
  return messages.reduce((sum, m) => sum + llama3Tokenizer.encode(m.content, { bos: false, eos: false }).length + 5, 1);
}

/** A day counts this many windows, as the service's budget counts it. */
const WINDOWS_PER_DAY = 1_440;

/**
 * A bucket that refills evenly over its period and holds at most one period's worth.
 *
 * @param level what it holds at the start
 */
function createBucket(limit: number, periodMs: number, level: number, now: () => number) {
  let at = now();
  const bucket = {
    level,
    refill() {
      const t = now();
      bucket.level = Math.min(limit, bucket.level + ((t - at) * limit) / periodMs);
      at = t;
    },
    /** ms until it holds `amount` */
    waitFor: (amount: number) => Math.max(0, ((amount - bucket.level) * periodMs) / limit),
  };
  return bucket;
}

/**
 * Groq's published rate limiting, played on loopback: buckets of tokens and
 * requests per minute and per day that refill evenly over their period; a
 * call is charged its prompt tokens plus its `max_tokens` when it arrives; a
 * call larger than the whole window's tokens is a 413, one the buckets cannot
 * pay now a 429 with `retry-after` and Groq's message naming the limit
 * (TPM, RPM, TPD, RPD); every answer carries the `x-ratelimit-*` headers as
 * Groq writes them: tokens per minute, requests per day.
 */
export function createProviderLimits(options: ProviderLimitsOptions, now: () => number = () => performance.now()) {
  const model = options.model ?? "openai/gpt-oss-20b";
  const dayMs = options.windowMs * WINDOWS_PER_DAY;
  const rpd = options.requestsPerDay ?? 1_000;
  const tokens = createBucket(options.tokensPerWindow, options.windowMs, options.tokensPerWindow, now);
  const requests = createBucket(options.requestsPerWindow, options.windowMs, options.requestsPerWindow, now);
  const dayRequests = createBucket(rpd, dayMs, rpd, now);
  const tpd = options.tokensPerDay;
  const dayTokens = tpd === undefined ? undefined : createBucket(tpd, dayMs, tpd - (options.dayTokensUsed ?? 0), now);
  const charges: Charge[] = [];
  const refill = () => [tokens, requests, dayRequests, dayTokens].forEach((b) => b?.refill());
  const headers = (): Record<string, string> => ({
    "x-ratelimit-limit-tokens": String(options.tokensPerWindow),
    "x-ratelimit-remaining-tokens": String(Math.max(0, Math.floor(tokens.level))),
    "x-ratelimit-reset-tokens": groqDuration(tokens.waitFor(options.tokensPerWindow)),
    "x-ratelimit-limit-requests": String(rpd),
    "x-ratelimit-remaining-requests": String(Math.max(0, Math.floor(dayRequests.level))),
    "x-ratelimit-reset-requests": groqDuration(dayRequests.waitFor(rpd)),
  });
  const where = `for model \`${model}\` in organization \`org_fake\` service tier \`on_demand\``;
  const refuse = (limit: string, cap: number, left: number, requested: number, waitMs: number): Verdict => ({
    ok: false,
    status: 429,
    headers: { ...headers(), "retry-after": String(Math.ceil(waitMs / 1000)) },
    body: {
      error: {
        message: `Rate limit reached ${where} on ${limit}: Limit ${cap}, Used ${
          cap - Math.floor(left)
        }, Requested ${requested}. Please try again in ${
          groqDuration(waitMs)
        }. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`,
        type: limit.includes("token") ? "tokens" : "requests",
        code: "rate_limit_exceeded",
      },
    },
  });

  return {
    charges,
    /** Decides a call of `messages` asking for up to `maxTokens`. */
    decide(messages: readonly { content: string }[], maxTokens: number): Verdict {
      refill();
      const promptTokens = llamaPromptTokens(messages);
      const requested = promptTokens + maxTokens;
      if (requested > options.tokensPerWindow) {
        return {
          ok: false,
          status: 413,
          headers: headers(),
          body: {
            error: {
              message:
                `Request too large ${where} on tokens per minute (TPM): Limit ${options.tokensPerWindow}, Requested ${requested}, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`,
              type: "tokens",
              code: "rate_limit_exceeded",
            },
          },
        };
      }
      if (dayRequests.level < 1) {
        return refuse("requests per day (RPD)", rpd, dayRequests.level, 1, dayRequests.waitFor(1));
      }
      if (dayTokens && dayTokens.level < requested) {
        return refuse("tokens per day (TPD)", tpd!, dayTokens.level, requested, dayTokens.waitFor(requested));
      }
      if (requests.level < 1) {
        return refuse("requests per minute (RPM)", options.requestsPerWindow, requests.level, 1, requests.waitFor(1));
      }
      if (tokens.level < requested) {
        return refuse(
          "tokens per minute (TPM)",
          options.tokensPerWindow,
          tokens.level,
          requested,
          tokens.waitFor(requested),
        );
      }
      tokens.level -= requested;
      requests.level -= 1;
      dayRequests.level -= 1;
      if (dayTokens) dayTokens.level -= requested;
      charges.push({ at: now(), tokens: requested });
      return { ok: true, promptTokens, charged: requested, headers: headers() };
    },
  };
}

export type ProviderLimits = ReturnType<typeof createProviderLimits>;

/** Durations as Groq writes them: `9.83s`, `2m59.56s`, `3h12m5s`. */
export function groqDuration(ms: number): string {
  const total = Math.max(0, ms) / 1000;
  if (total < 60) return `${total.toFixed(2).replace(/\.?0+$/, "") || "0"}s`;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const s = hours > 0 ? String(Math.round(seconds)) : seconds.toFixed(2).replace(/\.?0+$/, "");
  return `${hours > 0 ? `${hours}h` : ""}${minutes}m${s}s`;
}
