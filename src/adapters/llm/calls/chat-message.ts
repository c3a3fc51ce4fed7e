/** @module The chat message every call sends, and the tokens a call's messages count. */
import type { TokenCounter } from "../../../domain/reading/chunking.ts";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "../../../domain/reading/tokens.ts";

/** Chat messages in the OpenAI shape. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** @returns the estimated input tokens of a call's messages */
export function promptTokens(messages: readonly ChatMessage[], count: TokenCounter = estimateTokens): number {
  return messages.reduce((sum, m) => sum + count(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}
