/** @module A groq-sdk client whose requests land under any OpenAI-compatible base URL, and what that URL tells. */
import Groq from "groq-sdk";
import type { LimitDialect } from "../budget/limits-report.ts";

/** Groq's OpenAI-compatible API, as OpenAI-compatible clients take it. */
export const GROQ_BASE_URL = "https://api.groq.com/openai/v1";

/** The base groq-sdk is given: its requests are moved from there to the endpoint's own base by `fetch`. */
const SDK_BASE = "http://groq-sdk.invalid";
/** groq-sdk puts every path under this prefix (`/openai/v1/chat/completions`, `/openai/v1/models`, ...). */
const SDK_PREFIX = "/openai/v1";

/**
 * A groq-sdk client for an endpoint named as every OpenAI-compatible client names it (`http://localhost:11434/v1`,
 * `https://openrouter.ai/api/v1`, Groq's `https://api.groq.com/openai/v1`): groq-sdk appends `/openai/v1/...` to its
 * base, so its requests are rebased by its `fetch` onto the endpoint's base instead. Every call (the model, its
 * model list, speech-to-text) refuses redirects.
 *
 * @param options.baseUrl the endpoint, without a trailing slash
 * @param options.fetch where requests go (a capped or proxied fetch); the global one by default
 */
export function createGroqClient(
  options: { apiKey: string; baseUrl: string; timeoutMs: number; fetch?: typeof fetch },
): Groq {
  const fetcher = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  const rebased = (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const sdk = `${SDK_BASE}${SDK_PREFIX}`;
    const target = url.startsWith(sdk) ? `${base}${url.slice(sdk.length)}` : url;
    // A redirect is refused, never followed: it could carry the API key to another origin.
    return fetcher(input instanceof Request ? new Request(target, input) : target, { ...init, redirect: "error" });
  };
  return new Groq({
    apiKey: options.apiKey,
    baseURL: SDK_BASE,
    timeout: options.timeoutMs,
    maxRetries: 0,
    fetch: rebased as typeof fetch,
  });
}

/**
 * Groq's API (its host, or a base ending in `/openai/v1`, as Groq and a fake or proxy of it are named) writes its
 * rate-limit headers its own way (see `LimitDialect`); every other endpoint is read as OpenAI writes them.
 */
export function dialectOf(baseUrl: string): LimitDialect {
  try {
    const url = new URL(baseUrl);
    return url.hostname === "api.groq.com" || /\/openai\/v1\/?$/.test(url.pathname) ? "groq" : "openai";
  } catch {
    return "openai";
  }
}

/**
 * An endpoint on this machine or a private network (a local Ollama, vLLM or llama.cpp server): it has no per-minute
 * budget unless it says so.
 */
export function isPrivateEndpoint(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1") return true;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
      (a === 169 && b === 254);
  }
  return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe80:/.test(host);
}
