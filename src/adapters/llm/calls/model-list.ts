/** @module Asks the endpoint which models it serves (`GET /models`), and the context window it states for one. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape differs by server and is checked field by field
import { createGroqClient } from "./groq-client.ts";

/** What the endpoint said about the configured model. */
export type ModelListing =
  /** It lists the model; `contextTokens` when it states the window (Groq, vLLM, OpenRouter do; Ollama does not). */
  | { listed: true; contextTokens?: number; ids: string[] }
  /** It lists models, not this one. */
  | { listed: false; ids: string[] }
  /** It did not answer the question (no such route, an error, no answer in time): nothing is known. */
  | { listed: undefined; reason: string };

/**
 * Reads `GET {base}/models` through groq-sdk: the ids the endpoint serves, and the context window it states for
 * `model` (Groq's `context_window`, vLLM's `max_model_len`, OpenRouter's `context_length`).
 *
 * @param options.timeoutMs how long to wait for the answer; start-up does not wait longer
 * @returns the listing; never throws
 */
export async function readModelListing(
  options: { apiKey: string; baseUrl: string; model: string; timeoutMs: number; fetch?: typeof fetch },
): Promise<ModelListing> {
  const client = createGroqClient(options);
  try {
    const list = await client.models.list({ signal: AbortSignal.timeout(options.timeoutMs) });
    const data: any[] = Array.isArray((list as any)?.data) ? (list as any).data : [];
    const ids = data.map((entry) => entry?.id).filter((id): id is string => typeof id === "string");
    const entry = data.find((candidate) => candidate?.id === options.model);
    if (!entry) return { listed: false, ids };
    return { listed: true, contextTokens: statedContext(entry), ids };
  } catch (error) {
    return { listed: undefined, reason: error instanceof Error ? error.name : "error" };
  }
}

/** @returns the context window a model entry states, when it states a plausible one */
function statedContext(entry: any): number | undefined {
  const value = Number(entry?.context_window ?? entry?.max_model_len ?? entry?.context_length);
  return Number.isInteger(value) && value >= 1_024 ? value : undefined;
}
