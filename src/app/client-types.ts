import type { createHttpApp } from "./http-app.ts";

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
 * Only a type: importing it pulls no server code into the client.
 */
export type App = ReturnType<typeof createHttpApp>;
