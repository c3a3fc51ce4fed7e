/** @module Chat requests from body text, remembered: a popular question is parsed and checked once. */
/*
 * The one speed trick of the cached path. Remembering the last 1,000 bodies' requests saves the JSON parse, the
 * schema check, the URL parse and the answer key of a repeated body: without it a cached `POST /chat` ran at 0.48
 * of bare `Bun.serve` against 0.56 with it (16.5 against 13.9 µs of CPU a request; `bench/cached-revisions.ts`).
 * Kept answers' JSON text bought nothing that bench could tell from its noise: gone.
 */
import { type ChatInput, type ChatRequest, createChatRequest } from "../../domain/chat-request.ts";
import { checkChatBody } from "../contract/chat-body-check.ts";
import { parseJsonObject } from "./json-body.ts";

/** A chat body is flat: a failed one nested deeper is refused as such, not described field by field. */
const MAX_DEPTH = 32;

/**
 * The chat request a body's text asks for: parsed, checked against the
 * schema, defaults applied. The same text always gives the same request, so
 * recent ones are remembered (a cached answer is mostly asked for with the
 * same bytes) and handed out frozen, shared by every caller that sent them.
 * Failures are not remembered: they throw their `invalid_request` each time.
 *
 * @param options.maxEntries bound on the texts remembered, oldest dropped first (default 1,000)
 * @param options.maxTextLength longer texts are never remembered (default 2,048 characters)
 * @returns `requestOf(text)`, throwing the contract's 400 for a body that is not a valid chat request
 */
export function createChatRequests(options: { maxEntries?: number; maxTextLength?: number } = {}) {
  const maxEntries = options.maxEntries ?? 1_000;
  const maxTextLength = options.maxTextLength ?? 2_048;
  const known = new Map<string, ChatRequest>();
  return (text: string): ChatRequest => {
    const remembered = known.get(text);
    if (remembered) return remembered;
    const request = Object.freeze(createChatRequest(checkChatBodyText(text) as ChatInput));
    if (text.length <= maxTextLength) {
      known.set(text, request);
      if (known.size > maxEntries) known.delete(known.keys().next().value!);
    }
    return request;
  };
}

/** A body's text as a schema-valid chat body (the Elysia route's body), or its `invalid_request`. */
export function checkChatBodyText(text: string): unknown {
  return checkChatBody(parseJsonObject(text), { maxDepth: MAX_DEPTH });
}
