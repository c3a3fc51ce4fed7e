/** @module One `chat_about_video` call: arguments checked as POST /chat's body, then the chat use case. */
import type { ChatService } from "../../domain/chat.ts";
import type { AnswerListener } from "../../domain/generation.ts";
import type { KeyIdentity } from "../../domain/ports.ts";
import type { MeteredRequest } from "../../domain/usage/meter.ts";
import { answerResult, toChatRequest, type ToolResult } from "./chat-tool.ts";
import { charging } from "../usage/admission.ts";
import { createProgressSteps } from "./progress.ts";
import { callTimeoutMs, runToolCall, type ToolCallDeps, type ToolCallOptions, videoCallSteps } from "./tool-call.ts";
import { MCP_IDENTITY } from "./admission.ts";

export { MCP_IDENTITY } from "./admission.ts";

/** What a `chat_about_video` call needs: the chat use case, and what every call needs. */
export interface ChatCallDeps extends ToolCallDeps {
  chat: ChatService;
}

export interface ChatCallOptions extends ToolCallOptions {
  /** Whom the call is counted against (rate limit, usage, quota), instead of `deps.identity`. */
  caller?: KeyIdentity;
}

/**
 * Runs one call of the tool. Never throws: every failure is a result with
 * `isError`, logged as the HTTP request log logs a failed request.
 *
 * @param args the call's `arguments`
 */
export function callChatTool(deps: ChatCallDeps, args: unknown, options: ChatCallOptions = {}): Promise<ToolResult> {
  const callDeps = options.caller ? { ...deps, identity: options.caller } : deps;
  return runToolCall(callDeps, "chat_about_video", args, {
    ...videoCallSteps(deps, options, toChatRequest),
    async run(request, fields, metered) {
      const outcome = await answer(deps, request, options, metered, (callDeps.identity ?? MCP_IDENTITY).id);
      metered?.answered(outcome);
      fields.cache = outcome.cache;
      return answerResult(outcome.response);
    },
  });
}

async function answer(
  deps: ChatCallDeps,
  request: ReturnType<typeof toChatRequest>,
  options: ChatCallOptions,
  metered: MeteredRequest | undefined,
  holder: string,
) {
  const { progress } = options;
  const charged = charging(metered);
  const timeoutMs = callTimeoutMs(deps, options);
  if (!progress) return await deps.chat.answer(request, { signal: options.signal, timeoutMs, ...charged, holder });
  const steps = createProgressSteps();
  // The call reports only the steps of the work; the answer's text comes whole in the result.
  const listener: AnswerListener = (event) => {
    if (event.type !== "progress") return;
    const step = steps.next(event.progress);
    if (step) progress(step);
  };
  return await deps.chat.answer(request, { signal: options.signal, listener, timeoutMs, ...charged, holder });
}
