/** @module The servers the fake LLM plays (Groq, vLLM, Ollama, OpenRouter): their paths, model lists and errors. */

/** A server the fake LLM answers as: each puts its API under its own prefix and lists its models its own way. */
export type LlmFlavor = "groq" | "vllm" | "ollama" | "openrouter";

/** How one model behaves on the fake. */
export interface FakeModel {
  id: string;
  contextTokens: number;
  /**
   * How it reasons: gpt-oss always reasons (effort low, medium by default, or high; its reasoning in `message.reasoning`
   * unless `include_reasoning: false`); qwen3 thinks in `<think>` tags in the content unless `reasoning_format` says
   * otherwise or `reasoning_effort` is `none`; none: a model that refuses reasoning settings.
   */
  reasoning?: "gpt-oss" | "qwen3";
  /** A speech-to-text model: listed, but not for chat. */
  audio?: boolean;
}

/**
 * What Groq's free plan serves in late 2026 (its models page, read 2026-10-01), and one plain model for the tests
 * whose subject is not the model (`fake-model`: it does not reason, and its context window is 8,192 tokens).
 */
export const GROQ_MODELS_2026: readonly FakeModel[] = [
  { id: "openai/gpt-oss-20b", contextTokens: 131_072, reasoning: "gpt-oss" },
  { id: "openai/gpt-oss-120b", contextTokens: 131_072, reasoning: "gpt-oss" },
  { id: "qwen/qwen3.8-27b", contextTokens: 131_072, reasoning: "qwen3" },
  { id: "whisper-large-v3-turbo", contextTokens: 448, audio: true },
  { id: "whisper-large-v3", contextTokens: 448, audio: true },
  { id: "fake-model", contextTokens: 8_192 },
];

/** @returns the path prefix of the flavor's API, as its OpenAI-compatible base URL ends */
export function apiPrefix(flavor: LlmFlavor): string {
  return flavor === "groq" ? "/openai/v1" : flavor === "openrouter" ? "/api/v1" : "/v1";
}

/** @returns `GET /models` as the flavor answers it: only Groq, vLLM and OpenRouter state a context window */
export function modelList(flavor: LlmFlavor, models: readonly FakeModel[]): unknown {
  const created = 1_760_000_000;
  const data = models.map((model) => {
    if (flavor === "groq") {
      return {
        id: model.id,
        object: "model",
        created,
        owned_by: model.id.split("/")[0],
        active: true,
        context_window: model.contextTokens,
        public_apps: null,
        max_completion_tokens: model.audio ? undefined : Math.min(65_536, model.contextTokens),
      };
    }
    if (flavor === "vllm") {
      return {
        id: model.id,
        object: "model",
        created,
        owned_by: "vllm",
        root: model.id,
        max_model_len: model.contextTokens,
      };
    }
    if (flavor === "openrouter") {
      return { id: model.id, canonical_slug: model.id, name: model.id, created, context_length: model.contextTokens };
    }
    return { id: model.id, object: "model", created, owned_by: "library" };
  });
  return flavor === "openrouter" ? { data } : { object: "list", data };
}

/** @returns the body a flavor answers a model it does not serve with (Groq: 404 `model_not_found`) */
export function modelNotFound(flavor: LlmFlavor, model: string): { status: number; body: unknown } {
  if (flavor === "groq") {
    return {
      status: 404,
      body: {
        error: {
          message: `The model \`${model}\` does not exist or you do not have access to it.`,
          type: "invalid_request_error",
          code: "model_not_found",
        },
      },
    };
  }
  if (flavor === "ollama") {
    return {
      status: 404,
      body: { error: { message: `model "${model}" not found, try pulling it first`, type: "api_error" } },
    };
  }
  return {
    status: 404,
    body: { error: { message: `The model \`${model}\` does not exist.`, type: "NotFoundError", code: 404 } },
  };
}

/** @returns Groq's answer to a path it does not serve */
export function unknownUrl(method: string, path: string): Response {
  return Response.json({
    error: {
      message:
        `Unknown request URL: ${method} ${path}. Please check the URL for typos, or see the docs at https://console.groq.com/docs/`,
      type: "invalid_request_error",
      code: "unknown_url",
    },
  }, { status: 404 });
}

/** @returns a 400 as Groq words a request it refuses */
export function badRequest(message: string): Response {
  return Response.json({ error: { message, type: "invalid_request_error" } }, { status: 400 });
}
