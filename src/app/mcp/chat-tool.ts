/** @module The MCP tool `chat_about_video`: its definition, and arguments and outcomes as tool results. */
import type { ChatResponse } from "../../domain/chat.ts";
import { type ChatInput, type ChatRequest, createChatRequest, LANGUAGES } from "../../domain/chat-request.ts";
import { AppError } from "../../domain/errors.ts";
import { checkChatBody } from "../contract/chat-body-check.ts";
import { ChatBody, ChatResponseBody } from "../contract/chat-schema.ts";
import { retryAfterOf } from "../contract/error-response.ts";

export const TOOL_NAME = "chat_about_video";

/** A JSON Schema as MCP carries it: the TypeBox schema's own JSON, without TypeBox's symbol keys. */
type JsonSchema = { type: "object"; [key: string]: unknown };

const jsonSchemaOf = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema;

/**
 * The tool as `tools/list` shows it: the input schema is `POST /chat`'s body schema, the output schema its 200 body.
 */
export const CHAT_TOOL = {
  name: TOOL_NAME,
  title: "Chat about a YouTube video",
  description: [
    "Answers a question about one YouTube video, or summarises it, from the video's own transcript.",
    "Use it when the user asks what a YouTube video says, wants a summary of it, or asks about a moment in it; " +
    "pass the video's URL as the user gave it.",
    `The answer is written in one of ${LANGUAGES.join(", ")} (default en) whatever the video's language, with [m:ss] ` +
    "timestamps checked against the transcript.",
    "Long videos (hours) take a while: send a progressToken to follow the work.",
    "A failure is a result with isError whose text starts with an error code (such as transcript_unavailable or " +
    "upstream_blocked) and says what to do.",
  ].join(" "),
  inputSchema: jsonSchemaOf(ChatBody),
  outputSchema: jsonSchemaOf(ChatResponseBody),
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true, destructiveHint: false },
};

/** A `tools/call` result: text content, the response as structured content when it succeeded. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * The tool's arguments as `POST /chat` would take its body: the same schema
 * check and the same rules (defaults, prompt cut, URL check).
 *
 * @param args the call's `arguments` (absent means none)
 * @throws {AppError} `invalid_request` with the wording of the HTTP 400
 */
export function toChatRequest(args: unknown): ChatRequest {
  return createChatRequest(checkChatBody(args ?? {}) as ChatInput);
}

/**
 * @param response the 7-field body `POST /chat` would answer
 * @returns the tool's result: the output as text, the seven fields as structured content
 */
export function answerResult(response: ChatResponse): ToolResult {
  return { content: [{ type: "text", text: response.output }], structuredContent: { ...response } };
}

/** What to do after each code, where the message does not say it in terms an agent can act on. */
const ADVICE: Partial<Record<AppError["code"], string>> = {
  video_unavailable: "Check the URL, or ask the user for another video.",
  video_age_restricted: "This service cannot read it; ask the user for another video.",
  video_unplayable: "This service cannot read it; ask the user for another video.",
  transcript_unavailable: "Without captions this video cannot be answered about; ask the user for another video.",
  upstream_error: "Try again in a moment; if it persists, the video or the model cannot be used now.",
  upstream_timeout: "Try again; a shorter question or a summary of a shorter video is quicker.",
};

/**
 * A failure as a tool result (`isError`): the contract code first, then the
 * message for people, what to do, and when to retry where that is known.
 * Nothing internal: an unexpected error is `internal_error`, its details in the log only.
 *
 * @param error what the call failed with
 * @param internalMessage the message of an unexpected error: where its details are (the process's stderr by default)
 */
export function errorResult(error: unknown, internalMessage = INTERNAL_ERROR): ToolResult {
  const appError = error instanceof AppError ? error : new AppError("internal_error", internalMessage);
  const parts = [`${appError.code}: ${withStop(appError.message)}`];
  const advice = ADVICE[appError.code];
  if (advice) parts.push(advice);
  // Whole seconds, rounded up and bounded as Retry-After is: a limiter's reset time may be fractional.
  const seconds = retryAfterOf(appError);
  if (seconds !== undefined) parts.push(`Retry after ${seconds} second${seconds === 1 ? "" : "s"}.`);
  return { content: [{ type: "text", text: parts.join(" ") }], isError: true };
}

/** The HTTP wording asks to quote a request id; on stdio the details are in the process's own log. */
const INTERNAL_ERROR =
  "Something went wrong on our side; try again, and see the service's log (its stderr) if it persists";

const withStop = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);
