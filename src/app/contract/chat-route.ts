/** @module `POST /chat` declared to Elysia: the OpenAPI document and a typed client read its schemas. */
import { Elysia } from "elysia";
import { CHAT_RESPONSES, ChatBody } from "./chat-schema.ts";

/**
 * `POST /chat` as Elysia declares a route: its body and the response of each status. It is read, never
 * served: the OpenAPI document is built from it (`docs/document.ts`) and a typed client's `App` is its
 * type (`client-types.ts`). The server answers `POST /chat` with `http/chat-handler.ts`, outside Elysia,
 * whose route would add about 10 µs to every cached answer (docs/decisions.md, "The cached path").
 */
export const chatRoute = new Elysia().post("/chat", answeredElsewhere, { body: ChatBody, response: CHAT_RESPONSES });

function answeredElsewhere(): never {
  throw new Error("POST /chat is answered by http/chat-handler.ts; this route only declares its schemas");
}
