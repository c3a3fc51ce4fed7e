/** @module The MCP server (the SDK's low-level `Server`): lists the tools, routes their calls and cancellation. */
import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's `./*` export maps `types.js` to `types.js.d.ts` for type checkers; Deno is told where the types are (tsc
// finds them itself).
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { LANGUAGES } from "../../domain/chat-request.ts";
import { linkSignals } from "../../domain/linked-signal.ts";
import type { TranscriptReader } from "../../domain/transcript-reading.ts";
import { callChatTool, type ChatCallDeps } from "./chat-call.ts";
import { CHAT_TOOL, TOOL_NAME } from "./chat-tool.ts";
import type { ToolCallOptions } from "./tool-call.ts";
import { callTranscriptTool } from "./transcript-call.ts";
import { TRANSCRIPT_TOOL, TRANSCRIPT_TOOL_NAME } from "./transcript-tool.ts";

/** How the server names itself in `initialize`. */
export const SERVER_INFO = { name: "video-chat-service", version: "1.0.0" };

/** What the server serves: the chat use case, and the transcript use case when `get_transcript` is offered. */
export interface McpServerDeps extends ChatCallDeps {
  /** The transcript use case; without it the server offers `chat_about_video` only. */
  transcripts?: TranscriptReader;
}

/** A call's own signal besides the SDK's, from whoever runs the server (a shutdown, a cancellation heard elsewhere). */
export type CallSignal = (requestId: RequestId) => { signal: AbortSignal; dispose(): void };

/**
 * The low-level SDK server rather than `McpServer`: it takes the tools' JSON
 * Schemas as they are (`chat_about_video`'s derived from the TypeBox schema of
 * `POST /chat`), where `McpServer` wants zod schemas, a second copy. Arguments
 * are checked by the service's own checkers, so a bad call gets the HTTP 400's wording.
 *
 * A `progressToken` in the call's `_meta` turns progress events into
 * `notifications/progress`; `notifications/cancelled` (and the client going
 * away) aborts the call's signal, which cancels the work as a stream's
 * caller leaving does.
 *
 * @param deps the use cases, the rate limiter, the logger and the calls' time limits
 * @param options.callSignal each call's own signal too, followed as the SDK's is
 * @returns the server, to connect to a transport (stdio, Streamable HTTP, or in memory in tests)
 */
export function createMcpServer(deps: McpServerDeps, options: { callSignal?: CallSignal } = {}): Server {
  const tools = deps.transcripts ? [CHAT_TOOL, TRANSCRIPT_TOOL] : [CHAT_TOOL];
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: instructions(deps) });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (name !== TOOL_NAME && !(name === TRANSCRIPT_TOOL_NAME && deps.transcripts)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name.slice(0, 60))}; ${listed(deps)}`);
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
    const own = options.callSignal?.(extra.requestId);
    const linked = own ? linkSignals([extra.signal, own.signal]) : undefined;
    const call: ToolCallOptions = { signal: linked?.signal ?? extra.signal, progress };
    try {
      return name === TOOL_NAME
        ? await callChatTool(deps, request.params.arguments, call)
        : await callTranscriptTool({ ...deps, transcripts: deps.transcripts! }, request.params.arguments, call);
    } finally {
      linked?.dispose();
      own?.dispose();
    }
  });
  return server;
}

function listed(deps: McpServerDeps): string {
  return deps.transcripts ? `the tools are ${TOOL_NAME} and ${TRANSCRIPT_TOOL_NAME}` : `the only tool is ${TOOL_NAME}`;
}

function instructions(deps: McpServerDeps): string {
  const chat = `Answers questions about YouTube videos from their transcripts. Call ${TOOL_NAME} with the video URL ` +
    `and the user's question (or no prompt for a summary), in ${LANGUAGES.slice(0, -1).join(", ")} or ${
      LANGUAGES.at(-1)
    }.`;
  return deps.transcripts
    ? `${chat} Call ${TRANSCRIPT_TOOL_NAME} for the timed transcript itself, page by page for a long video.`
    : chat;
}
