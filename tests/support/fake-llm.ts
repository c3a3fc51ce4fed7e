/** @module Loopback fake of an OpenAI-compatible chat completions server, with scripted replies and limits. */
import { padded, resetMidBody, trickle } from "./fault-bodies.ts";
import { startLoopbackServer } from "./loopback-server.ts";
import { createProviderLimits, type ProviderLimits, type ProviderLimitsOptions } from "./provider-limits.ts";

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
  /** 413 or 429 when the fake's provider limits refused the call. */
  refused?: number;
  /** Whether the call asked for a streamed answer (`stream: true`). */
  stream: boolean;
  /** When the caller closed the connection before the answer was complete (performance.now()). */
  closedAt?: number;
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
  }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { hang: true }
  /** Headers and the start of a completion, then a dropped connection. */
  | { reset: true }
  /** A body sent as is (malformed JSON, garbage, empty), 200 unless `status` says otherwise. */
  | { raw: string; status?: number; contentType?: string };

export type Responder = (call: LlmCall, index: number) => LlmReply | Promise<LlmReply>;

export interface FakeLlm {
  /** Base URL to give as GROQ_BASE_URL. */
  baseUrl: string;
  calls: LlmCall[];
  /** Replaces the responder; undefined restores the default. */
  respondWith(responder: Responder | undefined): void;
  /** Most calls that were in flight at the same time. */
  readonly peakConcurrency: number;
  /** The provider limits enforced, when started with some. */
  readonly limits?: ProviderLimits;
  reset(): void;
  /** Stops listening, so that calls meet a refused connection. */
  refuseConnections(): Promise<void>;
  /** Listens again on the same port after {@linkcode refuseConnections}. */
  acceptConnections(): void;
  close(): Promise<void>;
}

/** Plausible answers per language, long enough for a language detector. */
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
};

/** Reads the requested language from the system prompt's "(language code xx)". */
export function requestedLanguage(call: LlmCall): string {
  return /language code ([a-z]{2})/.exec(call.text)?.[1] ?? "en";
}

const defaultResponder: Responder = (call) => ({ content: ANSWERS[requestedLanguage(call)] ?? ANSWERS.en! });

/**
 * A loopback OpenAI-compatible chat completions server (the path groq-sdk
 * uses), recording every call. By default it answers in the language the
 * system prompt asks for.
 */
export function startFakeLlm(options: { limits?: ProviderLimitsOptions } = {}): FakeLlm {
  const calls: LlmCall[] = [];
  const limits = options.limits ? createProviderLimits(options.limits) : undefined;
  let responder = defaultResponder;
  let inFlight = 0;
  let peak = 0;

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      return new Response("not found", { status: 404 });
    }
    const body = (await request.json()) as {
      model: string;
      messages: { role: string; content: string }[];
      max_tokens?: number;
      stream?: boolean;
    };
    const call: LlmCall = {
      stream: body.stream === true,
      model: body.model,
      messages: body.messages,
      maxTokens: body.max_tokens,
      text: body.messages.map((m) => m.content).join("\n"),
      authorization: request.headers.get("authorization"),
      startedAt: performance.now(),
    };
    const index = calls.push(call) - 1;
    request.signal.addEventListener("abort", () => (call.closedAt ??= performance.now()), { once: true });
    const verdict = limits?.decide(body.messages, body.max_tokens ?? 1024);
    if (verdict && !verdict.ok) {
      call.refused = verdict.status;
      return Response.json(verdict.body, { status: verdict.status, headers: verdict.headers });
    }
    if (verdict) call.charged = verdict.charged;
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      return withHeaders(
        await replyTo(await responder(call, index), body, verdict?.promptTokens, call),
        verdict?.headers,
      );
    } finally {
      inFlight--;
    }
  }

  const server = startLoopbackServer(handle);
  const port = server.port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    respondWith: (next) => (responder = next ?? defaultResponder),
    get peakConcurrency() {
      return peak;
    },
    limits,
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

async function replyTo(
  reply: LlmReply,
  body: { model: string; messages: { content: string }[]; stream?: boolean },
  countedPromptTokens?: number,
  call?: LlmCall,
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
  const promptTokens = reply.promptTokens ?? countedPromptTokens ??
    Math.ceil(body.messages.reduce((n, m) => n + m.content.length, 0) / 4);
  if (body.stream) {
    return new Response(streamedCompletion(reply, body.model, promptTokens, call), {
      headers: { "content-type": "text/event-stream" },
    });
  }
  const completion = JSON.stringify({
    id: `chatcmpl-fake-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { role: "assistant", content: reply.content }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: reply.completionTokens ?? Math.ceil(reply.content.length / 4),
      total_tokens: 0,
    },
  });
  const headers = { "content-type": "application/json" };
  if (reply.trickleMs) return new Response(trickle(completion, reply.trickleMs), { headers });
  if (reply.padBytes) return new Response(padded(completion, reply.padBytes), { headers });
  return new Response(completion, { headers });
}

/**
 * A streamed completion as OpenAI and Groq send it: `data:` chunks with
 * `choices[0].delta.content`, a last chunk with `finish_reason` and the
 * usage (Groq's `x_groq.usage`), then `data: [DONE]`.
 */
function streamedCompletion(
  reply: Extract<LlmReply, { content: string }>,
  model: string,
  promptTokens: number,
  call?: LlmCall,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const id = `chatcmpl-fake-${crypto.randomUUID()}`;
  const size = reply.chunkChars ?? 8;
  const pieces = Array.from(
    { length: Math.ceil(reply.content.length / size) },
    (_, i) => reply.content.slice(i * size, (i + 1) * size),
  );
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
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: reply.completionTokens ?? Math.ceil(reply.content.length / 4),
    total_tokens: 0,
  };
  const events = [
    chunk({ role: "assistant", content: "" }),
    ...pieces.map((piece) => chunk({ content: piece })),
    `data: ${
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created: 0,
        model,
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        x_groq: { id, usage },
      })
    }\n\n`,
    "data: [DONE]\n\n",
  ];
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next >= events.length) return controller.close();
      if (reply.cutAfterChunks !== undefined && next > reply.cutAfterChunks) {
        return controller.error(new Error("stream cut by the fake (an intended fault)"));
      }
      if (reply.chunkDelayMs && next > 0 && next <= pieces.length) await Bun.sleep(reply.chunkDelayMs);
      controller.enqueue(encoder.encode(events[next++]!));
    },
    cancel() {
      if (call) call.closedAt ??= performance.now();
    },
  });
}
