/** @module Types for a typed client: the HTTP app's type for Eden and the events of a streamed answer. */
import type { ChatResponse } from "../domain/chat.ts";
import type { ErrorCode } from "../domain/errors.ts";
import type { AnswerProgress } from "../domain/ports.ts";
import type { chatRoute } from "./contract/chat-route.ts";

/**
 * The type of the service's HTTP app, for a typed client with Elysia's Eden:
 *
 * ```ts
 * import { treaty } from "@elysiajs/eden";
 * import type { App } from "video-chat-service/src/app/client-types.ts";
 *
 * const api = treaty<App>("http://localhost:3000", { headers: { "x-api-key": key } });
 * const { data, error } = await api.chat.post({ url, prompt: "What is it about?" });
 * ```
 *
 * Only a type: importing it pulls no server code into the client. It is the type of `POST /chat`'s
 * declaration, whose schemas the OpenAPI document is built from too.
 */
export type App = typeof chatRoute;

/**
 * The events of a streamed answer (`POST /chat` with `Accept: text/event-stream`),
 * each with its `data` parsed from JSON: narrow on `event`. Read them with any
 * SSE parser (docs/streaming.md).
 */
export type ChatStreamEvent =
  | { event: "progress"; data: AnswerProgress }
  | { event: "delta"; data: { text: string } }
  | { event: "done"; data: ChatResponse }
  | { event: "error"; data: { error: { code: ErrorCode; message: string; request_id: string } } };
