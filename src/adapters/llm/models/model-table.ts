/** @module What the service knows of each model: free-plan figures, context, reasoning, retirements. */

/** The provider's limits on one model, per minute and per day (undefined: not published). */
export interface ModelLimits {
  tokensPerMinute: number;
  requestsPerMinute: number;
  tokensPerDay?: number;
  requestsPerDay?: number;
}

/** The values of `reasoning_effort` that providers accept, one model accepting some of them. */
export type WireEffort = "none" | "default" | "low" | "medium" | "high";

/** How a model reasons, and how to keep its reasoning out of answers. */
export interface ReasoningTraits {
  /** Values its `reasoning_effort` accepts. */
  efforts: readonly WireEffort[];
  /** The effort sent for each of the service's settings (`LLM_REASONING_EFFORT`). */
  effortFor: Readonly<Record<ReasoningEffort, WireEffort>>;
  /**
   * Where its reasoning appears unless asked otherwise: a `reasoning` field of the message (left out with
   * `include_reasoning: false`), or `<think>` tags in the content (left out with `reasoning_format: "hidden"`).
   */
  appears: "field" | "think-tags";
}

/** The service's setting for how hard a reasoning model thinks (`LLM_REASONING_EFFORT`). */
export type ReasoningEffort = "low" | "medium" | "high";
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ["low", "medium", "high"];

/** One model the service knows (its id is its key in {@linkcode KNOWN_MODELS}), with the day its figures were read. */
export interface ModelFacts {
  /** Free-plan limits, as the provider published them on `readOn`. */
  freePlan?: ModelLimits;
  contextTokens: number;
  reasoning?: ReasoningTraits;
  /** The provider serves it as a preview (it may change or go without the usual notice). */
  preview?: boolean;
  /** Where the figures come from, and when they were read. */
  readOn: string;
}

const GPT_OSS: ReasoningTraits = {
  efforts: ["low", "medium", "high"],
  effortFor: { low: "low", medium: "medium", high: "high" },
  appears: "field",
};

const QWEN3: ReasoningTraits = {
  efforts: ["none", "default"],
  // Qwen thinks or does not: a low effort is its instruct mode.
  effortFor: { low: "none", medium: "default", high: "default" },
  appears: "think-tags",
};

/** Groq's rate-limits page and model pages, read 2026-10-01 (console.groq.com/docs/rate-limits). */
const GROQ_2026_10 = "Groq's rate-limits and model pages, 2026-10-01";

/** The table as written: its keys are the ids the compiler checks `DEFAULT_MODEL` and replacements against. */
const TABLE = {
  "openai/gpt-oss-20b": {
    freePlan: { tokensPerMinute: 8_000, requestsPerMinute: 30, tokensPerDay: 200_000, requestsPerDay: 1_000 },
    contextTokens: 131_072,
    reasoning: GPT_OSS,
    readOn: GROQ_2026_10,
  },
  "openai/gpt-oss-120b": {
    freePlan: { tokensPerMinute: 8_000, requestsPerMinute: 30, tokensPerDay: 200_000, requestsPerDay: 1_000 },
    contextTokens: 131_072,
    reasoning: GPT_OSS,
    readOn: GROQ_2026_10,
  },
  "qwen/qwen3.8-27b": {
    // Its free-plan limits were not published with the preview: the provider's headers teach them.
    contextTokens: 131_072,
    reasoning: QWEN3,
    preview: true,
    readOn: GROQ_2026_10,
  },
} as const satisfies Readonly<Record<string, ModelFacts>>;

/** The id of a model the service knows: a key of {@linkcode KNOWN_MODELS}. */
export type KnownModel = keyof typeof TABLE;

/** Models the service knows, by id (the id the endpoint is asked for). */
export const KNOWN_MODELS: Readonly<Record<KnownModel, ModelFacts>> = TABLE;

/** @returns whether the service knows the model `id` names (an own key of the table, never `toString` and the like) */
function isKnownModel(id: string): id is KnownModel {
  return Object.hasOwn(KNOWN_MODELS, id);
}

/** The default model behind `chat-1.0`: the small model Groq's free plan serves since 2026-08-16. */
export const DEFAULT_MODEL: KnownModel = "openai/gpt-oss-20b";

/** A model the provider stopped serving, and the replacement it named. */
export interface RetiredModel {
  retiredOn: string;
  replacement: KnownModel;
}

/** Models Groq shut down for free and developer keys (its deprecations page, entries up to 2026-09-21). */
export const RETIRED_MODELS: Readonly<Record<string, RetiredModel>> = {
  "llama-3.1-8b-instant": { retiredOn: "2026-08-16", replacement: "openai/gpt-oss-20b" },
  "llama-3.3-70b-versatile": { retiredOn: "2026-08-16", replacement: "openai/gpt-oss-120b" },
  "meta-llama/llama-4-scout-17b-16e-instruct": { retiredOn: "2026-07-17", replacement: "openai/gpt-oss-120b" },
  "qwen/qwen3.6-27b": { retiredOn: "2026-09-14", replacement: "qwen/qwen3.8-27b" },
};

/**
 * What the service knows of a model, by its exact id: a model an endpoint names otherwise (`gpt-oss:20b` on Ollama,
 * `openai/gpt-oss-20b:free` on OpenRouter) has no figures here; {@linkcode reasoningOf} still tells how it reasons.
 *
 * @returns the facts, or undefined for a model the service does not know
 */
export function modelFacts(id: string): ModelFacts | undefined {
  return isKnownModel(id) ? KNOWN_MODELS[id] : undefined;
}

/**
 * How a model reasons: from the table for a known id, else from its family's name in the id (`gpt-oss`, `qwen3`), so a
 * model an endpoint names otherwise still has its reasoning kept out of answers.
 *
 * @returns the traits; undefined for a model not known to reason
 */
export function reasoningOf(id: string): ReasoningTraits | undefined {
  const known = modelFacts(id)?.reasoning;
  if (known) return known;
  if (/gpt-oss/i.test(id)) return GPT_OSS;
  if (/qwen-?3/i.test(id)) return QWEN3;
  return undefined;
}
