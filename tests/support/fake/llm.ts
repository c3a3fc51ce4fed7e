/** @module Loopback fake of an OpenAI-compatible chat completions server, with scripted replies and limits. */
import { padded, resetMidBody, trickle } from "./fault-bodies.ts";
import { startLoopbackServer } from "./loopback-server.ts";
import {
  createProviderLimits,
  llamaPromptTokens,
  type ProviderLimits,
  type ProviderLimitsOptions,
} from "./provider-limits.ts";
import {
  apiPrefix,
  type FakeModel,
  GROQ_MODELS_2026,
  type LlmFlavor,
  modelList,
  modelNotFound,
  unknownUrl,
} from "./llm-models.ts";
import { type ReasoningFields, type Thinking, thinking, write, type Written } from "./llm-reasoning.ts";
import type { Language } from "../../../src/domain/chat-request.ts";

/** What the fake LLM received in one chat completion request. */
export interface LlmCall {
  model: string;
  messages: { role: string; content: string }[];
  maxTokens?: number;
  /** System and user text joined, for easy assertions. */
  text: string;
  authorization: string | null;
  startedAt: number;
  /** Tokens the fake's provider limits charged for the call (prompt plus `max_tokens`). */
  charged?: number;
  /** 413 or 429 when the fake's provider limits refused the call; 400 or 404 when the fake refused it otherwise. */
  refused?: number;
  /** The `retry-after` (seconds) of a 429 from the fake's provider limits. */
  retryAfterSeconds?: number;
  /** Whether the call asked for a streamed answer (`stream: true`). */
  stream: boolean;
  /** When the caller closed the connection before the answer was complete (performance.now()). */
  closedAt?: number;
  /** When the fake had its answer (or refusal) ready to send (performance.now()). */
  answeredAt?: number;
  /** The reasoning fields the call sent (`reasoning_effort`, `include_reasoning`, `reasoning_format`). */
  reasoning: { effort?: unknown; include?: unknown; format?: unknown };
  /** How the answer ended (`stop`, or `length` when `max_tokens` ran out), and the reasoning tokens it spent. */
  finishReason?: "stop" | "length";
  reasoningTokens?: number;
}

/** What a responder tells the fake to do for one call. */
export type LlmReply =
  | {
    content: string;
    promptTokens?: number;
    completionTokens?: number;
    delayMs?: number;
    /** Sends the headers at once and the body spread over this many ms. */
    trickleMs?: number;
    /** Whitespace appended after the JSON body, for an oversized response. */
    padBytes?: number;
    /** A streamed answer: characters per chunk (8 by default) and the pause before each chunk. */
    chunkChars?: number;
    chunkDelayMs?: number;
    /** A streamed answer dropped (connection reset) after this many chunks of text. */
    cutAfterChunks?: number;
    /** A reasoning model spends this many reasoning tokens on the call (instead of what its effort spends). */
    reasoningTokens?: number;
  }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { hang: true }
  /** Headers and the start of a completion, then a dropped connection. */
  | { reset: true }
  /** A body sent as is (malformed JSON, garbage, empty), 200 unless `status` says otherwise. */
  | { raw: string; status?: number; contentType?: string };

export type Responder = (call: LlmCall, index: number) => LlmReply | Promise<LlmReply>;

export interface FakeLlm {
  /** The API's base URL as OpenAI-compatible clients take it (`http://127.0.0.1:PORT/openai/v1` for Groq). */
  baseUrl: string;
  /** Scheme, host and port. */
  origin: string;
  calls: LlmCall[];
  /** Replaces the responder; undefined restores the default. */
  respondWith(responder: Responder | undefined): void;
  /** Most calls that were in flight at the same time. */
  readonly peakConcurrency: number;
  /** The provider limits enforced, when started with some (the first model's, with per-model limits). */
  readonly limits?: ProviderLimits;
  /** Each model's own limits, when started with `limitsByModel`. */
  readonly limitsOf: (model: string) => ProviderLimits | undefined;
  reset(): void;
  /** Stops listening, so that calls meet a refused connection. */
  refuseConnections(): Promise<void>;
  /** Listens again on the same port after {@linkcode refuseConnections}. */
  acceptConnections(): void;
  close(): Promise<void>;
}

/** Plausible answers per language, long enough for a language detector (one for every answer language). */
export const ANSWERS: Record<string, string> = {
  en:
    "The video reviews the Surface Go, a small and light tablet. The reviewer likes the screen and the keyboard cover, and thinks it is good value [0:01].",
  es:
    "El vídeo analiza la Surface Go, una tableta pequeña y ligera. Al autor le gustan la pantalla y el teclado, y cree que tiene un buen precio [0:01].",
  pt:
    "O vídeo analisa o Surface Go, um tablet pequeno e leve. O autor gosta da tela e do teclado, e acha que tem um bom preço [0:01].",
  ru:
    "В видео рассматривается планшет Surface Go, маленький и лёгкий. Автору нравятся экран и клавиатура, и он считает его выгодной покупкой [0:01].",
  hi: "इस वीडियो में सरफेस गो टैबलेट की समीक्षा की गई है। यह छोटा और हल्का है, और समीक्षक को इसकी स्क्रीन और कीबोर्ड पसंद हैं [0:01]।",
} satisfies Record<Language, string>;

/** Reads the requested language from the system prompt's "(language code xx)". */
export function requestedLanguage(call: LlmCall): string {
  return /language code ([a-z]{2})/.exec(call.text)?.[1] ?? "en";
}

/** Whether the call is the service's search call (see `searchAsk`): it asks for search terms, not an answer. */
export function isSearchCall(call: LlmCall): boolean {
  return /\nSearch terms in [^\n]*:$/.test(call.messages.at(-1)?.content ?? "");
}

/** @returns the question a search call carries, as the service fenced it */
export function searchQuestion(call: LlmCall): string {
  return /<question>([\s\S]*?)<\/question>/.exec(call.messages.at(-1)?.content ?? "")?.[1] ?? "";
}

/**
 * @returns `responder` for every call but the service's search calls, which get the question's own words back, as
 *   from a model with none better
 */
export function besidesSearch(responder: Responder): Responder {
  return (call, index) => (isSearchCall(call) ? { content: searchQuestion(call) } : responder(call, index));
}

/** Answers in the language asked; a search call gets the question's own words back, as a model with none better. */
const defaultResponder: Responder = (call) => ({
  content: isSearchCall(call) ? searchQuestion(call) : ANSWERS[requestedLanguage(call)] ?? ANSWERS.en!,
});

/** What the fake plays. */
export interface FakeLlmOptions {
  /** Groq's rate limits, enforced and stated in headers (one set for whatever model is asked). */
  limits?: ProviderLimitsOptions;
  /**
   * Groq's limits per model, as Groq keeps them: each model its own minute and day on the same key, its 429s naming
   * it. A model without an entry here is served without limits only when `limits` is unset.
   */
  limitsByModel?: Record<string, ProviderLimitsOptions>;
  /** The server it answers as (Groq by default): its paths, model list and errors. */
  flavor?: LlmFlavor;
  /** The models it serves (Groq's of late 2026 and `fake-model` by default); others are 404. */
  models?: readonly FakeModel[];
}

/**
 * A loopback OpenAI-compatible server as Groq (or vLLM, Ollama, OpenRouter)
 * answers: chat completions and the model list under the flavor's own
 * prefix only, other paths 404; a model it does not serve 404
 * `model_not_found`; reasoning models that reason as gpt-oss and Qwen do on
 * Groq (see `thinking`). Every call is recorded. By default it answers in the
 * language the system prompt asks for.
 */
export function startFakeLlm(options: FakeLlmOptions = {}): FakeLlm {
  const flavor = options.flavor ?? "groq";
  const prefix = apiPrefix(flavor);
  const models = options.models ?? GROQ_MODELS_2026;
  const calls: LlmCall[] = [];
  const limits = options.limits ? createProviderLimits(options.limits) : undefined;
  const perModel = new Map(
    Object.entries(options.limitsByModel ?? {}).map(([id, plan]) => [id, createProviderLimits({ ...plan, model: id })]),
  );
  const limitsOf = (model: string) => perModel.get(model) ?? limits;
  let responder = defaultResponder;
  let inFlight = 0;
  let peak = 0;

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === `${prefix}/models`) {
      return Response.json(modelList(flavor, models));
    }
    if (request.method !== "POST" || url.pathname !== `${prefix}/chat/completions`) {
      return flavor === "groq"
        ? unknownUrl(request.method, url.pathname)
        : new Response("404 page not found", { status: 404 });
    }
    const body = (await request.json()) as {
      model: string;
      messages: { role: string; content: string }[];
      max_tokens?: number;
      stream?: boolean;
    } & ReasoningFields;
    const call: LlmCall = {
      stream: body.stream === true,
      model: body.model,
      messages: body.messages,
      maxTokens: body.max_tokens,
      text: body.messages.map((m) => m.content).join("\n"),
      authorization: request.headers.get("authorization"),
      startedAt: performance.now(),
      reasoning: { effort: body.reasoning_effort, include: body.include_reasoning, format: body.reasoning_format },
    };
    const index = calls.push(call) - 1;
    request.signal.addEventListener("abort", () => (call.closedAt ??= performance.now()), { once: true });
    const model = models.find((m) => m.id === body.model && !m.audio);
    if (!model) {
      const missing = modelNotFound(flavor, body.model);
      call.refused = missing.status;
      return Response.json(missing.body, { status: missing.status });
    }
    const think = thinking(model, body, llamaPromptTokens(body.messages));
    if (think instanceof Response) {
      call.refused = think.status;
      return think;
    }
    const verdict = limitsOf(body.model)?.decide(body.messages, body.max_tokens ?? 1024);
    if (verdict && !verdict.ok) {
      call.refused = verdict.status;
      if (verdict.headers["retry-after"]) call.retryAfterSeconds = Number(verdict.headers["retry-after"]);
      call.answeredAt = performance.now();
      return Response.json(verdict.body, { status: verdict.status, headers: verdict.headers });
    }
    if (verdict) call.charged = verdict.charged;
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      const response = withHeaders(
        await replyTo(await responder(call, index), body, { promptTokens: verdict?.promptTokens, call, think }),
        verdict?.headers,
      );
      call.answeredAt = performance.now();
      return response;
    } finally {
      inFlight--;
    }
  }

  const server = startLoopbackServer(handle);
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    baseUrl: `${origin}${prefix}`,
    origin,
    calls,
    respondWith: (next) => (responder = next ?? defaultResponder),
    get peakConcurrency() {
      return peak;
    },
    limits: limits ?? perModel.values().next().value,
    limitsOf,
    reset() {
      calls.length = 0;
      responder = defaultResponder;
      peak = 0;
    },
    refuseConnections: server.refuseConnections,
    acceptConnections: server.acceptConnections,
    close: server.close,
  };
}

function withHeaders(response: Response, headers: Record<string, string> | undefined): Response {
  for (const [name, value] of Object.entries(headers ?? {})) response.headers.set(name, value);
  return response;
}

/** What the fake knows of a call besides the responder's reply. */
interface CallContext {
  /** The prompt's tokens as the provider limits counted them. */
  promptTokens?: number;
  call?: LlmCall;
  think: Thinking;
}

async function replyTo(
  reply: LlmReply,
  body: { model: string; messages: { content: string }[]; stream?: boolean; max_tokens?: number },
  context: CallContext,
): Promise<Response> {
  if ("hang" in reply) return await new Promise<Response>(() => {});
  if ("reset" in reply) {
    return new Response(resetMidBody('{"id":"chatcmpl-fake","choices":[{"index":0,"message":{"role":"assis'), {
      headers: { "content-type": "application/json" },
    });
  }
  if ("raw" in reply) {
    return new Response(reply.raw, {
      status: reply.status ?? 200,
      headers: { "content-type": reply.contentType ?? "application/json" },
    });
  }
  if ("status" in reply) {
    const payload = reply.body ?? { error: { message: "fake failure", type: "server_error" } };
    return Response.json(payload, { status: reply.status, headers: reply.headers });
  }
  if (reply.delayMs) await Bun.sleep(reply.delayMs);
  const promptTokens = reply.promptTokens ?? context.promptTokens ??
    Math.ceil(body.messages.reduce((n, m) => n + m.content.length, 0) / 4);
  // No max_tokens: the model's own cap (gpt-oss on Groq writes up to 65,536).
  const think = reply.reasoningTokens !== undefined && context.think.tokens > 0
    ? { ...context.think, tokens: reply.reasoningTokens }
    : context.think;
  const written = write(reply.content, think, body.max_tokens ?? 65_536, reply.completionTokens);
  if (context.call) {
    context.call.finishReason = written.finish;
    context.call.reasoningTokens = written.reasoningTokens;
  }
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: written.completionTokens,
    total_tokens: promptTokens + written.completionTokens,
    ...(think.tokens > 0 ? { completion_tokens_details: { reasoning_tokens: written.reasoningTokens } } : {}),
  };
  if (body.stream) {
    return new Response(streamedCompletion(reply, written, body.model, usage, context.call), {
      headers: { "content-type": "text/event-stream" },
    });
  }
  const message = {
    role: "assistant",
    content: written.content,
    ...(written.reasoning ? { reasoning: written.reasoning } : {}),
  };
  const completion = JSON.stringify({
    id: `chatcmpl-fake-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message, finish_reason: written.finish }],
    usage,
  });
  const headers = { "content-type": "application/json" };
  if (reply.trickleMs) return new Response(trickle(completion, reply.trickleMs), { headers });
  if (reply.padBytes) return new Response(padded(completion, reply.padBytes), { headers });
  return new Response(completion, { headers });
}

/**
 * A streamed completion as OpenAI and Groq send it: `data:` chunks with
 * `choices[0].delta.reasoning` (a reasoning model asked to show it) then
 * `delta.content`, a last chunk with `finish_reason` and the usage (Groq's
 * `x_groq.usage`), then `data: [DONE]`.
 */
function streamedCompletion(
  reply: Extract<LlmReply, { content: string }>,
  written: Written,
  model: string,
  usage: object,
  call?: LlmCall,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const id = `chatcmpl-fake-${crypto.randomUUID()}`;
  const size = reply.chunkChars ?? 8;
  const split = (text: string) =>
    Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
  const pieces = split(written.content);
  const chunk = (delta: object, extra: object = {}) =>
    `data: ${
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, delta, finish_reason: null }],
        ...extra,
      })
    }\n\n`;
  const thoughts = written.reasoning ? split(written.reasoning).map((piece) => chunk({ reasoning: piece })) : [];
  const events = [
    chunk({ role: "assistant", content: "" }),
    ...thoughts,
    ...pieces.map((piece) => chunk({ content: piece })),
    `data: ${
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created: 0,
        model,
        choices: [{ index: 0, delta: {}, finish_reason: written.finish }],
        x_groq: { id, usage },
      })
    }\n\n`,
    "data: [DONE]\n\n",
  ];
  const firstPiece = 1 + thoughts.length;
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next >= events.length) return controller.close();
      // The cut comes when the next chunk would have: the text before it has reached the reader by then.
      if (reply.chunkDelayMs && next >= firstPiece && next < firstPiece + pieces.length) {
        await Bun.sleep(reply.chunkDelayMs);
      }
      if (reply.cutAfterChunks !== undefined && next >= firstPiece && next - firstPiece >= reply.cutAfterChunks) {
        return controller.error(new Error("stream cut by the fake (an intended fault)"));
      }
      controller.enqueue(encoder.encode(events[next++]!));
    },
    cancel() {
      if (call) call.closedAt ??= performance.now();
    },
  });
}
