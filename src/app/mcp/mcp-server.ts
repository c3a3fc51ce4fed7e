/** @module The MCP server (the SDK's low-level `Server`): lists the tool, routes its calls and cancellation. */
import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's `./*` export maps `types.js` to `types.js.d.ts` for type checkers; Deno is told where the types are (tsc
// finds them itself).
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { callChatTool, type ChatCallDeps } from "./chat-call.ts";
import { CHAT_TOOL, TOOL_NAME } from "./chat-tool.ts";

/** How the server names itself in `initialize`. */
export const SERVER_INFO = { name: "video-chat-service", version: "1.0.0" };

const INSTRUCTIONS =
  `Answers questions about YouTube videos from their transcripts. Call ${TOOL_NAME} with the video URL and the ` +
  `user's question (or no prompt for a summary), in en, hi, es, pt or ru.`;

/**
 * The low-level SDK server rather than `McpServer`: it takes the tool's JSON
 * Schema as is (derived from the TypeBox schema of `POST /chat`), where
 * `McpServer` wants zod schemas, a second copy. Arguments are checked by the
 * same checker as the HTTP body, so a bad call gets the same wording.
 *
 * A `progressToken` in the call's `_meta` turns progress events into
 * `notifications/progress`; `notifications/cancelled` (and the client going
 * away) aborts the call's signal, which cancels the work as a stream's
 * caller leaving does.
 *
 * @param deps the use case, the rate limiter, the logger and the calls' time limits
 * @returns the server, to connect to a transport (stdio, or in memory in tests)
 */
export function createMcpServer(deps: ChatCallDeps): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [CHAT_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name !== TOOL_NAME) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(request.params.name.slice(0, 60))}; the only tool is ${TOOL_NAME}`,
      );
    }
    const token = request.params._meta?.progressToken;
    const progress = token === undefined
      ? undefined
      : (step: { progress: number; total?: number; message: string }) => {
        // A notification that cannot be sent (the client went away) is no reason to stop the work: the signal says
        // that.
        extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, ...step } }).catch(
          () => {},
        );
      };
    return await callChatTool(deps, request.params.arguments, { signal: extra.signal, progress });
  });
  return server;
}
