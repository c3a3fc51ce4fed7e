/** @module Groq's published rate limiting played on loopback, for the fake LLM. */
import llama3Tokenizer from "llama3-tokenizer-js";

/** Per-window budgets a provider enforces, as Groq's plans do (per minute; tests shorten the window). */
export interface ProviderLimitsOptions {
  tokensPerWindow: number;
  requestsPerWindow: number;
  windowMs: number;
  model?: string;
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

/**
 * Groq's published rate limiting, played on loopback: two buckets (tokens,
 * requests) that refill evenly over the window; a call is charged its prompt
 * tokens plus its `max_tokens` when it arrives; a call larger than the whole
 * window's tokens is a 413, one the buckets cannot pay now a 429 with
 * `retry-after`; every answer carries the `x-ratelimit-*` headers.
 */
export function createProviderLimits(options: ProviderLimitsOptions, now: () => number = () => performance.now()) {
  const model = options.model ?? "llama-3.1-8b-instant";
  let tokens = options.tokensPerWindow;
  let requests = options.requestsPerWindow;
  let at = now();
  const charges: Charge[] = [];
  const refill = () => {
    const t = now();
    tokens = Math.min(options.tokensPerWindow, tokens + ((t - at) * options.tokensPerWindow) / options.windowMs);
    requests = Math.min(
      options.requestsPerWindow,
      requests + ((t - at) * options.requestsPerWindow) / options.windowMs,
    );
    at = t;
  };
  const seconds = (ms: number) => `${(Math.max(0, ms) / 1000).toFixed(2)}s`;
  const headers = (): Record<string, string> => ({
    "x-ratelimit-limit-tokens": String(options.tokensPerWindow),
    "x-ratelimit-remaining-tokens": String(Math.max(0, Math.floor(tokens))),
    "x-ratelimit-reset-tokens": seconds(
      ((options.tokensPerWindow - tokens) * options.windowMs) / options.tokensPerWindow,
    ),
    "x-ratelimit-limit-requests": String(options.requestsPerWindow),
    "x-ratelimit-remaining-requests": String(Math.max(0, Math.floor(requests))),
    "x-ratelimit-reset-requests": seconds(
      ((options.requestsPerWindow - requests) * options.windowMs) / options.requestsPerWindow,
    ),
  });
  const error = (message: string) => ({ error: { message, type: "tokens", code: "rate_limit_exceeded" } });

  return {
    charges,
    /** Decides a call of `messages` asking for up to `maxTokens`. */
    decide(messages: readonly { content: string }[], maxTokens: number): Verdict {
      refill();
      const promptTokens = llamaPromptTokens(messages);
      const requested = promptTokens + maxTokens;
      const where = `for model \`${model}\` in organization \`org_fake\` service tier \`on_demand\``;
      if (requested > options.tokensPerWindow) {
        return {
          ok: false,
          status: 413,
          headers: headers(),
          body: error(
            `Request too large ${where} on tokens per minute (TPM): Limit ${options.tokensPerWindow}, Requested ${requested}, please reduce your message size and try again.`,
          ),
        };
      }
      if (requests < 1) {
        const wait = ((1 - requests) * options.windowMs) / options.requestsPerWindow;
        return {
          ok: false,
          status: 429,
          headers: { ...headers(), "retry-after": String(Math.ceil(wait / 1000)) },
          body: error(
            `Rate limit reached ${where} on requests per minute (RPM): Limit ${options.requestsPerWindow}, Used ${
              options.requestsPerWindow - Math.floor(requests)
            }, Requested 1. Please try again in ${seconds(wait)}.`,
          ),
        };
      }
      if (tokens < requested) {
        const wait = ((requested - tokens) * options.windowMs) / options.tokensPerWindow;
        const used = options.tokensPerWindow - Math.floor(tokens);
        return {
          ok: false,
          status: 429,
          headers: { ...headers(), "retry-after": String(Math.ceil(wait / 1000)) },
          body: error(
            `Rate limit reached ${where} on tokens per minute (TPM): Limit ${options.tokensPerWindow}, Used ${used}, Requested ${requested}. Please try again in ${
              seconds(wait)
            }. Need more tokens? Upgrade to Dev Tier today.`,
          ),
        };
      }
      tokens -= requested;
      requests -= 1;
      charges.push({ at: now(), tokens: requested });
      return { ok: true, promptTokens, charged: requested, headers: headers() };
    },
  };
}

export type ProviderLimits = ReturnType<typeof createProviderLimits>;
