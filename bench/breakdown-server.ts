/** @module The ladder of servers for the cached-request breakdown, each adding one part of the cached path. */
/**
 * The stages of bench/cached-request-breakdown.ts: `POST /chat` served with
 * one more part of the service's cached path at each stage, all answering
 * the same cached chat response. Each stage is the previous one plus:
 *
 * - `elysia`: a minimal Elysia app with the service's body schema, fixed JSON
 * - `body`: the service's body reading (content type, size limit, UTF-8, JSON, depth) and schema check
 * - `key`: the API-key check (the service's key store, SHA-256 digest)
 * - `rules`: the request rules (URL → video id, defaults, prompt cut)
 * - `answer`: the answer-cache lookup through the use case, and the response JSON
 *
 * The full service (request id, rate limit, request log, Server-Timing, ...)
 * is the runner's last stage, started as `bun src/app/main-bun.ts`.
 *
 *   PORT=0 API_KEYS=k YOUTUBE_BASE_URL=... bun bench/breakdown-server.ts <stage>
 */
import { Elysia } from "elysia";
import { ChatBody } from "../src/app/contract/chat-schema.ts";
import { composeChat } from "../src/app/compose/service.ts";
import { composeWriter } from "../src/app/compose/llm.ts";
import { composeState } from "../src/app/compose/state.ts";
import { loadConfig } from "../src/app/config/config.ts";
import { readJsonText } from "../src/app/http/json-body.ts";
import { checkChatBodyText } from "../src/app/http/chat-requests.ts";
import { silentLogger } from "../src/app/log/logger.ts";
import { type ChatInput, createChatRequest } from "../src/domain/chat-request.ts";

export const STAGES = ["elysia", "body", "key", "rules", "answer"] as const;
type Stage = (typeof STAGES)[number];

const stage = process.argv[2] as Stage;
const level = STAGES.indexOf(stage);
if (level < 0) throw new Error(`Unknown stage ${stage}; one of ${STAGES.join(", ")}`);
const has = (part: Stage): boolean => level >= STAGES.indexOf(part);

const config = loadConfig(process.env);
const io = { logger: silentLogger };
const state = await composeState(config, io);
const chat = composeChat(config, io, { state, writer: composeWriter(config, io) });
const HEADERS = { "content-type": "application/json; charset=utf-8" };
// The stages before `answer` send the answer the last stage would send, fetched once here.
const fixed = JSON.stringify((await chat.answer(createChatRequest({ url: "https://youtu.be/GJLlxj_dtq8" }))).response);

const readBody = async ({ request }: { request: Request }): Promise<unknown> => {
  if (has("key")) {
    const key = request.headers.get("x-api-key")?.trim();
    if (!key || !(await state.apiKeys.verify(key))) {
      throw new Error("Unknown API key (the runner checks every status is 200)");
    }
  }
  return checkChatBodyText(await readJsonText(request, config.maxBodyBytes));
};

const app = new Elysia({ normalize: false }).post(
  "/chat",
  async ({ body }) => {
    if (has("answer")) {
      return new Response(JSON.stringify((await chat.answer(createChatRequest(body as ChatInput))).response), {
        headers: HEADERS,
      });
    }
    if (has("rules")) createChatRequest(body as ChatInput);
    return new Response(fixed, { headers: HEADERS });
  },
  { body: ChatBody, ...(has("body") ? { parse: [readBody, "json"] } : {}) },
);

const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  fetch: app.fetch,
  development: false,
});
console.log(`${stage} stage listening on http://127.0.0.1:${server.port}`);
process.on("SIGTERM", () => process.exit(0));
