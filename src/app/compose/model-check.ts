/** @module Asks the endpoint at start-up whether it serves the configured model, and the context window to plan on. */
import { readModelListing } from "../../adapters/llm/calls/model-list.ts";
import { unavailableModelAdvice } from "../../adapters/llm/models/model-unavailable.ts";
import type { LlmLink } from "../config/llm-chain.ts";

/** What start-up learnt about the model: the context window planned on (and where it came from), and any warning. */
export interface ModelCheck {
  /** The model checked (one of the chain's). */
  model: string;
  contextTokens: number;
  contextSource: "LLM_CONTEXT_TOKENS" | "the endpoint's /models" | "the model table" | "a guess";
  /** The endpoint lists models, not this one. */
  warning?: string;
}

/** An unknown model's context window when neither the operator nor the endpoint states it. */
export const GUESSED_CONTEXT_TOKENS = 8_192;

/** How long start-up waits for the endpoint's list of models. */
const LISTING_TIMEOUT_MS = 3_000;

/**
 * Reads the endpoint's `GET /models` once: a model it does not list is a warning (naming the replacement the provider
 * recommends, when known), and the context window it states is planned on unless `LLM_CONTEXT_TOKENS` says otherwise
 * (it is preferred over the model table's). An endpoint that does not answer changes nothing.
 *
 * @param link one model of the chain, on its endpoint
 * @param fetch where requests go (a loopback fake's in tests)
 */
export async function checkModel(link: LlmLink, fetch?: typeof globalThis.fetch): Promise<ModelCheck> {
  const { apiKey, baseUrl, model } = link;
  const listing = await readModelListing({
    apiKey,
    baseUrl,
    model,
    timeoutMs: LISTING_TIMEOUT_MS,
    fetch,
  });
  const warning = listing.listed === false ? unavailableModelAdvice(model, link.setting) : undefined;
  const { contextTokens, contextStated } = link.figures;
  if (contextStated && contextTokens !== undefined) {
    return { model, contextTokens, contextSource: "LLM_CONTEXT_TOKENS", warning };
  }
  const stated = listing.listed === true ? listing.contextTokens : undefined;
  if (stated !== undefined) return { model, contextTokens: stated, contextSource: "the endpoint's /models", warning };
  if (contextTokens !== undefined) return { model, contextTokens, contextSource: "the model table", warning };
  return { model, contextTokens: GUESSED_CONTEXT_TOKENS, contextSource: "a guess", warning };
}
