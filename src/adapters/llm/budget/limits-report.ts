/** @module Reads what the LLM provider says about its limits from headers and rate-limit messages. */
/**
 * What the provider said about its limits on one answer: the
 * `x-ratelimit-*` headers every answer carries, and the figures written in
 * the body of a 429 or 413. The window's figures (a minute) and the day's are
 * kept apart: Groq limits both.
 */
export interface LimitReport {
  /** Tokens the window allows (`x-ratelimit-limit-tokens`, or "Limit N" in a body). */
  tokenLimit?: number;
  /** Tokens left at the time of the answer. */
  tokensRemaining?: number;
  requestLimit?: number;
  requestsRemaining?: number;
  /** Nothing may be sent before this much time has passed (a 429's `retry-after`). */
  retryAfterMs?: number;
  /** Tokens the day allows (Groq's TPD, written only in a 429's message). */
  dayTokenLimit?: number;
  dayTokensRemaining?: number;
  /** Requests the day allows (Groq's RPD: its `x-ratelimit-*-requests` headers, or a 429's message). */
  dayRequestLimit?: number;
  dayRequestsRemaining?: number;
  /** Nothing may be sent before this much time has passed: the day's limit is spent (a TPD or RPD 429). */
  dayRetryAfterMs?: number;
}

/**
 * How an endpoint writes its rate-limit headers. Groq's request headers count
 * the day's requests (RPD) and its token headers the minute's tokens; OpenAI's
 * (and most others') count both per minute.
 */
export type LimitDialect = "groq" | "openai";

/**
 * @param headers any answer's headers
 * @param dialect how the endpoint writes them (Groq's by default)
 * @returns the limits they state; empty when they state none
 */
export function reportFromHeaders(headers: Headers | undefined, dialect: LimitDialect = "groq"): LimitReport {
  if (!headers) return {};
  const requestLimit = count(headers.get("x-ratelimit-limit-requests"));
  const requestsRemaining = count(headers.get("x-ratelimit-remaining-requests"));
  const tokens = {
    tokenLimit: count(headers.get("x-ratelimit-limit-tokens")),
    tokensRemaining: count(headers.get("x-ratelimit-remaining-tokens")),
  };
  if (dialect === "groq") return { ...tokens, dayRequestLimit: requestLimit, dayRequestsRemaining: requestsRemaining };
  return { ...tokens, requestLimit, requestsRemaining };
}

/**
 * Reads the figures of Groq's rate-limit messages, e.g. `Limit 6000, Used
 * 5000, Requested 2000. Please try again in 9.83s.` (429), `Limit 6000,
 * Requested 6294` (413), or the day's: `on tokens per day (TPD): Limit
 * 200000, Used 199000, Requested 3000. Please try again in 3h12m5s.`
 *
 * @returns the limit, what is left (limit minus used) and the wait, for the minute or the day as the message says
 */
export function reportFromMessage(message: string): LimitReport & { requested?: number } {
  const figure = (name: string) => count(new RegExp(`\\b${name}:?\\s+(\\d+)`, "i").exec(message)?.[1]);
  const limit = figure("Limit");
  const used = figure("Used");
  const left = limit !== undefined && used !== undefined ? Math.max(0, limit - used) : undefined;
  const text = /try again in\s+([0-9hms.]+)/i.exec(message)?.[1];
  const wait = text ? parseDurationMs(text.replace(/\.$/, "")) : undefined;
  const tokens = /tokens per minute|\(TPM\)/i.test(message);
  const requests = /requests per minute|\(RPM\)/i.test(message);
  const dayTokens = /tokens per day|\(TPD\)/i.test(message);
  const dayRequests = /requests per day|\(RPD\)/i.test(message);
  return {
    tokenLimit: tokens ? limit : undefined,
    tokensRemaining: tokens ? left : undefined,
    requestLimit: requests ? limit : undefined,
    requestsRemaining: requests ? left : undefined,
    retryAfterMs: wait,
    dayTokenLimit: dayTokens ? limit : undefined,
    dayTokensRemaining: dayTokens ? left : undefined,
    dayRequestLimit: dayRequests ? limit : undefined,
    dayRequestsRemaining: dayRequests ? left : undefined,
    dayRetryAfterMs: dayTokens || dayRequests ? wait : undefined,
    requested: figure("Requested"),
  };
}

/**
 * Parses the durations Groq writes, such as `7.66s`, `2m59.56s`, `1h2m` or `250ms`.
 *
 * @returns milliseconds, or undefined when the text is not such a duration
 */
export function parseDurationMs(text: string): number | undefined {
  const match = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(
    text.trim(),
  );
  if (!match || text.trim() === "") return undefined;
  const [, h, m, s, ms] = match.map((part) => Number(part ?? 0));
  return Math.round(h! * 3_600_000 + m! * 60_000 + s! * 1000 + ms!);
}

function count(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Math.floor(Number(value));
}
