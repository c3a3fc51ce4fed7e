/** @module The MCP server (the v2 SDK's low-level `Server`): lists the tools, routes their calls and cancellation. */
import { ProtocolError, ProtocolErrorCode, Server, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { RequestId } from "@modelcontextprotocol/server";
import { LANGUAGES } from "../../domain/chat-request.ts";
import { linkSignals } from "../../domain/linked-signal.ts";
import type { TranscriptReader } from "../../domain/transcript-reading.ts";
import { callChatTool, type ChatCallDeps } from "./chat-call.ts";
import { CHAT_TOOL, TOOL_NAME } from "./chat-tool.ts";
import type { ToolCallOptions } from "./tool-call.ts";
import { callTranscriptTool } from "./transcript-call.ts";
import { TRANSCRIPT_TOOL, TRANSCRIPT_TOOL_NAME } from "./transcript-tool.ts";

/** How the server names itself in `initialize` and `server/discover`. */
export const SERVER_INFO = { name: "video-chat-service", version: "1.0.0" };

/** The revision without a handshake: each request carries its version and the client's capabilities in `_meta`. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * The revisions served, newest first: 2026-07-28, and every revision from the `initialize` era the SDK speaks
 * (2025-11-25 down to 2024-10-07), so agents on either keep working. The SDK's default list is the older era only.
 */
export const PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

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
 * The same server answers either revision: the SDK's serving entries (`createMcpHandler` over HTTP, `serveStdio`)
 * pick the era from the request, and the handlers below do not need to know it: on 2026-07-28 a progress token
 * still rides in the call's `_meta`, and a cancellation reaches the call's signal (the client closing the call's
 * response stream over HTTP, `notifications/cancelled` over stdio).
 *
 * @returns the server, to hand to a serving entry (or to connect to a transport in memory in tests)
 */
export function createMcpServer(deps: McpServerDeps, options: { callSignal?: CallSignal } = {}): Server {
  const tools = deps.transcripts ? [CHAT_TOOL, TRANSCRIPT_TOOL] : [CHAT_TOOL];
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: instructions(deps),
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
  });
  server.setRequestHandler("tools/list", () => ({ tools }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name } = request.params;
    if (name !== TOOL_NAME && !(name === TRANSCRIPT_TOOL_NAME && deps.transcripts)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(name.slice(0, 60))}; ${listed(deps)}`,
      );
    }
    const token = ctx.mcpReq._meta?.progressToken;
    const progress = token === undefined
      ? undefined
      : (step: { progress: number; total?: number; message: string }) => {
        // A notification that cannot be sent (the client went away) is no reason to stop the work: the signal says
        // that.
        ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, ...step } }).catch(
          () => {},
        );
      };
    const own = options.callSignal?.(ctx.mcpReq.id);
    const linked = own ? linkSignals([ctx.mcpReq.signal, own.signal]) : undefined;
    const call: ToolCallOptions = { signal: linked?.signal ?? ctx.mcpReq.signal, progress };
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
