/** @module Reads the chain of models: `LLM_MODELS` on the endpoint, then `LLM_FALLBACK_MODELS` on a second one. */
import type { EnvReader } from "./readers.ts";
import { type LlmApiConfig, type ModelFigures, readModelList, startingFigures, type StatedFigures } from "./llm-api.ts";
import type { LimitDialect } from "../../adapters/llm/budget/limits-report.ts";
import { dialectOf } from "../../adapters/llm/calls/groq-client.ts";
import { MODEL_SETTINGS } from "../../adapters/llm/models/model-unavailable.ts";

/** One model of the chain, on its endpoint, with the figures its own budget starts from. */
export interface LlmLink {
  model: string;
  baseUrl: string;
  apiKey: string;
  dialect: LimitDialect;
  /** `primary`: the `LLM_*` endpoint (the operator's figures apply); `fallback`: `LLM_FALLBACK_*`'s. */
  endpoint: "primary" | "fallback";
  /** The settings that name the model, for the message when the endpoint does not serve it. */
  setting: string;
  figures: ModelFigures;
}

/**
 * @param api the endpoint's settings (its `models` the chain on it)
 * @param primary the primary model's figures (read by `readModelFigures`)
 * @returns every model of the chain in the order they are tried: `LLM_MODELS` (or the one model), then
 *   `LLM_FALLBACK_MODELS` on `LLM_FALLBACK_BASE_URL` with `LLM_FALLBACK_API_KEY`
 */
export function readLlmChain(read: EnvReader, api: LlmApiConfig, primary: ModelFigures): LlmLink[] {
  const stated: StatedFigures = {
    tokensPerMinute: primary.limitsStated ? primary.tokensPerMinute : undefined,
    requestsPerMinute: read.raw("LLM_REQUESTS_PER_MINUTE") === undefined ? undefined : primary.requestsPerMinute,
    contextTokens: primary.contextStated ? primary.contextTokens : undefined,
  };
  const links: LlmLink[] = api.models.map((model, i) => ({
    model,
    baseUrl: api.baseUrl,
    apiKey: api.apiKey ?? "",
    dialect: api.dialect,
    endpoint: "primary",
    setting: api.models.length > 1 ? "LLM_MODELS" : MODEL_SETTINGS,
    figures: i === 0 ? primary : startingFigures(api.baseUrl, model, stated),
  }));
  return [...links, ...readFallback(read, api)];
}

/** `LLM_FALLBACK_*`: a second endpoint's models, tried after the first endpoint's; all three or none. */
function readFallback(read: EnvReader, api: LlmApiConfig): LlmLink[] {
  const baseUrl = read.optionalUrl("LLM_FALLBACK_BASE_URL");
  const apiKey = read.raw("LLM_FALLBACK_API_KEY");
  const models = readModelList(read, "LLM_FALLBACK_MODELS");
  const named = [baseUrl, apiKey, models.length > 0 ? models : undefined];
  if (named.every((value) => value === undefined)) return [];
  if (named.some((value) => value === undefined)) {
    read.fail(
      "LLM_FALLBACK_BASE_URL, LLM_FALLBACK_API_KEY and LLM_FALLBACK_MODELS go together: set all three (any key for a " +
        "server that takes none) or none",
    );
    return [];
  }
  if (api.apiKey === undefined) {
    read.fail("LLM_FALLBACK_* name a second endpoint for the first one's models: set LLM_API_KEY too");
  }
  const twice = baseUrl === api.baseUrl ? models.find((model) => api.models.includes(model)) : undefined;
  if (twice !== undefined) {
    read.fail(`LLM_FALLBACK_MODELS names ${JSON.stringify(twice)}, already in LLM_MODELS on the same endpoint`);
  }
  return models.map((model) => ({
    model,
    baseUrl: baseUrl!,
    apiKey: apiKey!,
    dialect: dialectOf(baseUrl!),
    endpoint: "fallback",
    setting: "LLM_FALLBACK_MODELS",
    figures: startingFigures(baseUrl!, model, {}),
  }));
}
