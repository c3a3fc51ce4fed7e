/** @module The baseline servers of the cached-path benches: bare `Bun.serve`, keyed, and a minimal Elysia app. */
/**
 * The baselines of bench/startup-throughput.ts (`bare`, `elysia`), cached-wrk.ts and
 * cached-revisions.ts (`keyed`), serving `POST /chat` with a fixed JSON shaped like a
 * chat response:
 *
 * - `bare` (default): `Bun.serve` with one handler that parses the JSON body.
 *   No routing, auth, validation, cache or logs. The reference of the goal.
 * - `elysia`: the same through a minimal Elysia app (route, `t.Object` body
 *   validation), to show how much of the gap is the framework's floor.
 * - `keyed`: `bare` that also checks the `x-api-key` header (issue 23's baseline:
 *   "parses the same JSON, checks the key and answers the same body").
 *
 *   PORT=0 bun bench/support/bare-server.ts [bare|keyed|elysia]
 */
import { Elysia, t } from "elysia";

const answer = JSON.stringify({
  url: "https://www.youtube.com/watch?v=GJLlxj_dtq8",
  model: "chat-1.0",
  prompt: "What does the reviewer think of the keyboard?",
  language: "en",
  output_format: "text",
  output:
    "The video reviews the Surface Go, a small and light tablet. The reviewer likes the screen and the keyboard cover, and thinks it is good value [0:01].",
  video_duration: "5 minutes",
});
const headers = { "content-type": "application/json; charset=utf-8" };

async function bare(request: Request): Promise<Response> {
  if (request.method === "GET") return new Response("ready");
  const body = (await request.json()) as { url?: unknown };
  if (typeof body.url !== "string") {
    return new Response('{"error":{"code":"invalid_request"}}', { status: 400, headers });
  }
  return new Response(answer, { headers });
}

const KEY = process.env.API_KEYS ?? "";

async function keyed(request: Request): Promise<Response> {
  if (request.method === "GET") return new Response("ready");
  if (request.headers.get("x-api-key") !== KEY) {
    return new Response('{"error":{"code":"unauthorized"}}', { status: 401, headers });
  }
  return await bare(request);
}

const elysia = new Elysia()
  .get("/", () => "ready")
  .post("/chat", () => new Response(answer, { headers }), {
    body: t.Object({
      url: t.String(),
      model: t.Optional(t.String()),
      prompt: t.Optional(t.String()),
      language: t.Optional(t.String()),
      output_format: t.Optional(t.String()),
    }, { additionalProperties: false }),
  });

const kind = process.argv[2] ?? "bare";
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  fetch: kind === "elysia" ? elysia.fetch : kind === "keyed" ? keyed : bare,
});
console.log(`${kind} server listening on http://127.0.0.1:${server.port}`);
process.on("SIGTERM", () => process.exit(0));
