/** @module Reads the LLM endpoint's settings: `LLM_*` (or their `GROQ_*` synonyms), the model and its figures. */
import type { EnvReader } from "./readers.ts";
import type { LimitDialect } from "../../adapters/llm/budget/limits-report.ts";
import { NO_STATED_LIMIT, PROVISIONAL_LIMITS } from "../../adapters/llm/budget/headerless.ts";
import { dialectOf, GROQ_BASE_URL, isPrivateEndpoint } from "../../adapters/llm/calls/groq-client.ts";
import {
  DEFAULT_MODEL,
  modelFacts,
  REASONING_EFFORTS,
  type ReasoningEffort,
} from "../../adapters/llm/models/model-table.ts";

/** The endpoint the answers are written by, and the model behind `chat-1.0`. */
export interface LlmApiConfig {
  /** `LLM_API_KEY` (or `GROQ_API_KEY`); without it the offline engine answers. */
  apiKey?: string;
  /** OpenAI-compatible base URL, as such clients take it (`https://api.groq.com/openai/v1`). */
  baseUrl: string;
  /** The primary model: `LLM_MODELS`' first, else `LLM_MODEL` (or `GROQ_MODEL`). */
  model: string;
  /** `LLM_MODELS`: the chain of models on this endpoint, the primary first (the primary alone when unset). */
  models: string[];
  /** How the endpoint writes its rate-limit headers: Groq's, or OpenAI's. */
  dialect: LimitDialect;
  /** `LLM_REASONING_EFFORT`: how hard a reasoning model thinks. */
  reasoningEffort: ReasoningEffort;
}

/** The figures the LLM budget and planner start from, until the endpoint states its own. */
export interface ModelFigures {
  tokensPerMinute: number;
  requestsPerMinute: number;
  /** The day's limits (Groq's free plan): assumed only for a model of Groq's table, unless stated. */
  tokensPerDay?: number;
  requestsPerDay?: number;
  /**
   * `LLM_CONTEXT_TOKENS`, else the model table's figure. Start-up plans on the operator's figure, else what the
   * endpoint's `/models` states, else this table's, else 8,192 (an unknown model's guess).
   */
  contextTokens?: number;
  /** The operator set `LLM_CONTEXT_TOKENS`: it wins over what the endpoint states. */
  contextStated: boolean;
  /** The operator set `LLM_TOKENS_PER_MINUTE`: an endpoint stating no limits is paced by it, never unpaced. */
  limitsStated: boolean;
  /** A private endpoint with no stated limits: unpaced from the start, and after one answer that states none. */
  privateUnpaced: boolean;
}

/** Assumed for a model the table does not know until the endpoint's first answer states its own. */
export const PROVISIONAL = {
  tokensPerMinute: PROVISIONAL_LIMITS.tokensPerWindow,
  requestsPerMinute: PROVISIONAL_LIMITS.requestsPerWindow,
};

/**
 * @param read the environment reader (problems are collected, not thrown)
 * @returns the endpoint's settings; a `GROQ_*` name and its `LLM_*` synonym set to different values is a problem
 */
export function readLlmApi(read: EnvReader): LlmApiConfig {
  const apiKey = synonym(read, "LLM_API_KEY", "GROQ_API_KEY", { secret: true });
  const baseUrl = synonym(read, "LLM_BASE_URL", "GROQ_BASE_URL", { url: true, fromSynonym: sdkBaseToOpenAi }) ??
    GROQ_BASE_URL;
  const named = synonym(read, "LLM_MODEL", "GROQ_MODEL");
  const models = readModelList(read, "LLM_MODELS");
  if (named !== undefined && models.length > 0 && models[0] !== named) {
    read.fail(
      `LLM_MODELS starts with ${JSON.stringify(models[0])} but LLM_MODEL (or GROQ_MODEL) is ${
        JSON.stringify(named)
      }; set only LLM_MODELS, its first model the primary`,
    );
  }
  const model = models[0] ?? named ?? DEFAULT_MODEL;
  return {
    apiKey,
    baseUrl,
    model,
    models: models.length > 0 ? models : [model],
    dialect: dialectOf(baseUrl),
    reasoningEffort: read.oneOf("LLM_REASONING_EFFORT", REASONING_EFFORTS, "low"),
  };
}

/**
 * A comma-separated list of model ids, each once.
 *
 * @returns the ids in order (none when unset)
 */
export function readModelList(read: EnvReader, name: string): string[] {
  const models = read.list(name);
  // A list set to commas alone is a mistake to say, not the default model to fall back on unseen.
  if (read.raw(name) !== undefined && models.length === 0) {
    read.fail(`${name} names no model: list model ids separated by commas, or leave it unset`);
  }
  const twice = models.filter((model, i) => models.indexOf(model) !== i);
  if (twice.length > 0) {
    read.fail(`${name} names ${JSON.stringify(twice[0])} twice: list each model once, in the order to try them`);
  }
  return [...new Set(models)];
}

/**
 * @param api the endpoint's settings
 * @returns the primary model's figures to start from (see {@link startingFigures})
 */
export function readModelFigures(read: EnvReader, api: LlmApiConfig): ModelFigures {
  const stated: StatedFigures = {
    tokensPerMinute: read.optionalInt("LLM_TOKENS_PER_MINUTE", { min: 100, max: Number.MAX_SAFE_INTEGER }),
    requestsPerMinute: read.optionalInt("LLM_REQUESTS_PER_MINUTE", { min: 1, max: Number.MAX_SAFE_INTEGER }),
    contextTokens: read.optionalInt("LLM_CONTEXT_TOKENS", { min: 1_024, max: 10_000_000 }),
  };
  return startingFigures(api.baseUrl, api.model, stated);
}

/** The operator's figures for the `LLM_*` endpoint, as set (undefined: the model's own). */
export interface StatedFigures {
  tokensPerMinute?: number;
  requestsPerMinute?: number;
  contextTokens?: number;
}

/**
 * The figures a model's budget starts from: the operator's for the `LLM_*` endpoint, else the model table's free
 * plan on Groq's API, else a private endpoint's none, else provisional ones (`PROVISIONAL`).
 */
export function startingFigures(baseUrl: string, model: string, stated: StatedFigures): ModelFigures {
  const facts = modelFacts(model);
  const free = dialectOf(baseUrl) === "groq" ? facts?.freePlan : undefined;
  const limitsStated = stated.tokensPerMinute !== undefined;
  const privateUnpaced = !free && !limitsStated && isPrivateEndpoint(baseUrl);
  const start = privateUnpaced
    ? { tokensPerMinute: NO_STATED_LIMIT, requestsPerMinute: NO_STATED_LIMIT }
    : free ?? PROVISIONAL;
  return {
    tokensPerMinute: stated.tokensPerMinute ?? start.tokensPerMinute,
    requestsPerMinute: stated.requestsPerMinute ?? start.requestsPerMinute,
    // A plan's minute figures set by the operator are another plan than the free one: its day is not assumed.
    tokensPerDay: limitsStated ? undefined : free?.tokensPerDay,
    requestsPerDay: limitsStated ? undefined : free?.requestsPerDay,
    contextTokens: stated.contextTokens ?? facts?.contextTokens,
    contextStated: stated.contextTokens !== undefined,
    limitsStated,
    privateUnpaced,
  };
}

/**
 * groq-sdk takes `GROQ_BASE_URL` as an origin and adds `/openai/v1`; a base already ending in `/v1` is taken as
 * written.
 */
function sdkBaseToOpenAi(value: string): string {
  return /\/v1$/.test(value) ? value : `${value}/openai/v1`;
}

/** How a setting known by two names is read. */
interface SynonymOptions {
  /** Both are http(s) URLs. */
  url?: boolean;
  /** Turns the synonym's value into the neutral setting's form (as written, when absent). */
  fromSynonym?: (value: string) => string;
  /** Its values are never echoed in problems. */
  secret?: boolean;
}

/**
 * Reads a setting known by two names: the neutral one wins; both set to values that differ (as read) stop start-up.
 */
function synonym(read: EnvReader, name: string, other: string, options: SynonymOptions = {}): string | undefined {
  const { url = false, fromSynonym = (value: string) => value, secret = false } = options;
  const own = url ? read.optionalUrl(name) : read.raw(name);
  const theirs = url ? read.optionalUrl(other) : read.raw(other);
  const converted = theirs === undefined ? undefined : fromSynonym(theirs);
  if (own !== undefined && converted !== undefined && own !== converted) {
    const shown = secret ? "" : `: ${JSON.stringify(own)} and ${JSON.stringify(theirs)}`;
    read.fail(`${name} and ${other} name the same setting but differ${shown}; set only ${name}`);
  }
  return own ?? converted;
}
