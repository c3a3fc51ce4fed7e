/** @module One `chat_about_video` call: arguments checked as POST /chat's body, then the chat use case. */
import type { ChatService } from "../../domain/chat.ts";
import type { AnswerListener } from "../../domain/generation.ts";
import { answerResult, toChatRequest, type ToolResult } from "./chat-tool.ts";
import { createProgressSteps } from "./progress.ts";
import { runToolCall, type ToolCallDeps, type ToolCallOptions } from "./tool-call.ts";

export { MCP_IDENTITY } from "./admission.ts";

/** What a `chat_about_video` call needs: the chat use case, and what every call needs. */
export interface ChatCallDeps extends ToolCallDeps {
  chat: ChatService;
}

export type ChatCallOptions = ToolCallOptions;

/**
 * Runs one call of the tool. Never throws: every failure is a result with
 * `isError`, logged as the HTTP request log logs a failed request.
 *
 * @param args the call's `arguments`
 */
export function callChatTool(deps: ChatCallDeps, args: unknown, options: ChatCallOptions = {}): Promise<ToolResult> {
  return runToolCall(deps, "chat_about_video", args, {
    check(args, fields) {
      const request = toChatRequest(args);
      fields.video_id = request.videoId;
      return request;
    },
    async run(request, fields) {
      const outcome = await answer(deps, request, options);
      fields.cache = outcome.cache;
      return answerResult(outcome.response);
    },
  });
}

async function answer(deps: ChatCallDeps, request: ReturnType<typeof toChatRequest>, options: ChatCallOptions) {
  const { progress } = options;
  if (!progress) return await deps.chat.answer(request, { signal: options.signal, timeoutMs: deps.requestTimeoutMs });
  const steps = createProgressSteps();
  // Only the steps of the work are told; the answer's text comes whole in the result.
  const listener: AnswerListener = (event) => {
    if (event.type !== "progress") return;
    const step = steps.next(event.progress);
    if (step) progress(step);
  };
  return await deps.chat.answer(request, { signal: options.signal, listener, timeoutMs: deps.progressTimeoutMs });
}
