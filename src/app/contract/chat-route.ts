/** @module `POST /chat` declared to Elysia: the OpenAPI document and a typed client read its schemas. */
import { Elysia } from "elysia";
import { CHAT_RESPONSES, ChatBody } from "./chat-schema.ts";

/**
 * `POST /chat` as Elysia declares a route: its body and the response of each status. It is read, never
 * served: the OpenAPI document is built from it (`docs/document.ts`) and a typed client's `App` is its
 * type (`client-types.ts`). The server answers `POST /chat` with `http/chat-handler.ts`, outside Elysia's
 * router, which would add a few µs to every cached answer (bench/README.md).
 */
export const chatRoute = new Elysia().post("/chat", answeredElsewhere, { body: ChatBody, response: CHAT_RESPONSES });

function answeredElsewhere(): never {
  throw new Error("POST /chat is answered by http/chat-handler.ts; this route only declares its schemas");
}
