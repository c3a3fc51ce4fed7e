/** @module Builds the OpenAPI 3.1 document of `POST /chat` from the app's schemas and error catalogue. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { toOpenAPISchema } from "@elysiajs/openapi";
import type { AnyElysia } from "elysia";
import { PROMPT_MAX_CODE_POINTS } from "../../domain/chat-request.ts";
import { ErrorBody } from "../contract/chat-schema.ts";
import { CHAT_ERROR_DOCS } from "./errors.ts";
import { type ChatErrorCode, ERROR_STATUS } from "../contract/error-status.ts";
import { STREAM_DESCRIPTION, streamContent, streamSchemas } from "./stream.ts";
import { QUOTA_HEADERS } from "./quota-headers.ts";

/** OpenAPI version of the document: 3.1 describes schemas as JSON Schema 2020-12, as TypeBox writes them. */
export const OPENAPI_VERSION = "3.1.0";

type Json = Record<string, any>;

const EXAMPLE_URL = "https://www.youtube.com/watch?v=GJLlxj_dtq8";
const EXAMPLE_REQUEST_ID = "0f6c1b1e-6a4e-4c57-9d6e-3b1f0c6f2a11";

const DESCRIPTION = `Answers questions about a YouTube video from its transcript.

Authenticate every call to \`POST /chat\` with your key in the \`x-api-key\` header
(press **Authorize**). This page and the document behind it need no key.

Every non-200 response has the body \`{"error": {"code", "message", "request_id"}}\`: \`code\`
is stable (match on it), \`message\` is for people. Every response carries \`x-request-id\`;
quote it when reporting a problem.`;

const OPERATION_DESCRIPTION =
  `Reads the video's transcript from YouTube and has the language model answer the prompt from it.

- **url** is required; every other field has a default.
- **prompt**: a question or instruction about the video. Absent, blank, or \`summary\` (any case) asks for a summary;
  any other request about the whole video (a summary in your words, key points, chapters with timestamps, "what is it
  about", a list of everything of a kind) is read over the whole video as a summary is, in your words.
  A prompt longer than ${PROMPT_MAX_CODE_POINTS} characters (counted in Unicode code points, a surrogate pair never
  split) is **cut to its first ${PROMPT_MAX_CODE_POINTS}**, not rejected; the response echoes the prompt as processed.
- Unknown fields are refused (a typo such as \`langauge\` must not silently give English); JSON types are not coerced;
  enum values are exact and lower case.
- Checks run in this order: API key (401), content type (415), body size (413), JSON and validation (400), then the
  work.

${STREAM_DESCRIPTION}`;

/**
 * Builds the OpenAPI document of the service: `POST /chat` only, from the
 * route's TypeBox schemas, with the contract's error catalogue, examples and
 * the `x-api-key` scheme added.
 *
 * @param app an Elysia instance declaring `POST /chat` (`contract/chat-route.ts`)
 * @returns the document served at `/swagger/json`
 */
export function buildOpenApiDocument(app: AnyElysia): Json {
  const generated = toOpenAPISchema(app, undefined, undefined, undefined, OPENAPI_VERSION) as Json;
  const chat = generated.paths?.["/chat"]?.post as Json | undefined;
  return {
    openapi: OPENAPI_VERSION,
    info: { title: "Video Chat Service", version: "1.0.0", description: DESCRIPTION },
    security: [{ apiKey: [] }],
    tags: [{ name: "chat", description: "Questions and summaries about a YouTube video" }],
    paths: chat ? { "/chat": { post: describeChat(chat) } } : {},
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description: "Your API key. Ask the service's operator for one.",
        },
      },
      schemas: { Error: plainSchema(ErrorBody), ...streamSchemas() },
      headers: {
        "x-request-id": {
          description:
            "The request's id: yours if you sent a sane one (1 to 128 of A-Z a-z 0-9 . _ : -), else a new one",
          schema: { type: "string" },
        },
        "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 1 } },
        "RateLimit-Limit": {
          description: "Requests your key may make in its window (sent only when the key has a limit)",
          schema: { type: "integer" },
        },
        "RateLimit-Remaining": { description: "Requests left in the window", schema: { type: "integer" } },
        "RateLimit-Reset": {
          description: "Seconds until the window's budget is restored",
          schema: { type: "integer" },
        },
        ...QUOTA_HEADERS,
      },
    },
  };
}

function describeChat(generated: Json): Json {
  const body = generated.requestBody?.content?.["application/json"]?.schema;
  const ok = generated.responses?.["200"]?.content?.["application/json"]?.schema;
  return {
    operationId: "createChat",
    tags: ["chat"],
    summary: "Chat about a YouTube video",
    description: OPERATION_DESCRIPTION,
    parameters: [
      {
        name: "x-request-id",
        in: "header",
        required: false,
        description: "Your id for this request, echoed back and logged",
        schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" },
      },
      {
        name: "Accept",
        in: "header",
        required: false,
        description:
          "`text/event-stream` streams the answer as Server-Sent Events (see above); anything else, or none, gets JSON",
        schema: { type: "string", examples: ["text/event-stream"] },
      },
    ],
    requestBody: { required: true, content: { "application/json": { schema: body, examples: REQUEST_EXAMPLES } } },
    responses: {
      "200": {
        description:
          "The answer, with the request's fields echoed as processed and the video's length; with `Accept: " +
          "text/event-stream`, the answer as Server-Sent Events (`progress`, `delta`, `done`, `error`)",
        headers: headerRefs(
          "x-request-id",
          "RateLimit-Limit",
          "RateLimit-Remaining",
          "RateLimit-Reset",
          ...Object.keys(QUOTA_HEADERS),
        ),
        content: {
          "application/json": { schema: ok, examples: RESPONSE_EXAMPLES },
          "text/event-stream": streamContent(),
        },
      },
      ...errorResponses(),
    },
  };
}

const REQUEST_EXAMPLES = {
  summary: { summary: "A summary (only url)", value: { url: EXAMPLE_URL } },
  question: {
    summary: "A question, answered in Spanish Markdown",
    value: {
      url: "https://youtu.be/GJLlxj_dtq8?t=42",
      model: "chat-1.0",
      prompt: "What does the reviewer think of the keyboard?",
      language: "es",
      output_format: "markdown",
    },
  },
};

const RESPONSE_EXAMPLES = {
  summary: {
    summary: "A summary",
    value: {
      url: EXAMPLE_URL,
      model: "chat-1.0",
      prompt: "summary",
      language: "en",
      output_format: "text",
      output:
        "The reviewer tests the Surface Go as an everyday laptop: the keyboard cover is good to type on, battery " +
        "life is modest ... [2:31]",
      video_duration: "5 minutes",
    },
  },
};

/** One response per status, each with an example body per code (422 has four, 503 two). */
function errorResponses(): Record<string, Json> {
  const byStatus = new Map<number, ChatErrorCode[]>();
  for (const code of Object.keys(CHAT_ERROR_DOCS) as ChatErrorCode[]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Json> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const retry = codes.some((code) => CHAT_ERROR_DOCS[code].retryAfter);
    out[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${CHAT_ERROR_DOCS[code].when}. ${CHAT_ERROR_DOCS[code].todo}.`)
        .join("\n\n"),
      headers: headerRefs(
        "x-request-id",
        ...(retry ? ["Retry-After"] : []),
        ...(status === 429
          ? ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", ...Object.keys(QUOTA_HEADERS)]
          : []),
      ),
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Error" },
          examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: errorExample(code) }])),
        },
      },
    };
  }
  return out;
}

function errorExample(code: ChatErrorCode): Json {
  return { error: { code, message: CHAT_ERROR_DOCS[code].example, request_id: EXAMPLE_REQUEST_ID } };
}

function headerRefs(...names: string[]): Json {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** TypeBox schemas are JSON Schema plus symbol keys; JSON drops the symbols. */
function plainSchema(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema));
}
