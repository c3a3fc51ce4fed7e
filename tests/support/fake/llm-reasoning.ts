/** @module How the fake LLM's reasoning models reason: Groq's checks of the settings, tokens spent, where it shows. */
import { badRequest, type FakeModel } from "./llm-models.ts";

/** The reasoning fields of a chat completion request. */
export interface ReasoningFields {
  reasoning_effort?: unknown;
  include_reasoning?: unknown;
  reasoning_format?: unknown;
}

/** How one call reasons: the tokens it spends, and where the reasoning appears. */
export interface Thinking {
  tokens: number;
  /** `field`: `message.reasoning`; `think`: `<think>` tags before the content; `hidden`: nowhere. */
  shows: "field" | "think" | "hidden";
  effort?: string;
}

const GPT_OSS_EFFORTS = ["low", "medium", "high"];
const QWEN_EFFORTS = ["none", "default"];

/**
 * Groq's checks of a request's reasoning fields, then what the call spends: gpt-oss reasons 48 tokens plus 1 per 100
 * prompt tokens at `low`, 200 plus 1 per 25 at `medium` (its default), 800 plus 1 per 8 at `high`; qwen3 like `medium`
 * unless its effort is `none`.
 *
 * @returns a 400 for settings the model refuses, else how it thinks
 */
export function thinking(model: FakeModel, body: ReasoningFields, promptTokens: number): Response | Thinking {
  const { reasoning_effort: effort, include_reasoning: include, reasoning_format: format } = body;
  if (include !== undefined && format !== undefined) {
    return badRequest("`include_reasoning` and `reasoning_format` are mutually exclusive; set only one");
  }
  if (!model.reasoning) {
    if (effort !== undefined || format !== undefined || include !== undefined) {
      return badRequest(
        `\`reasoning_effort\`, \`reasoning_format\` and \`include_reasoning\` are not supported with model \`${model.id}\``,
      );
    }
    return { tokens: 0, shows: "hidden" };
  }
  if (model.reasoning === "gpt-oss") {
    if (effort !== undefined && !GPT_OSS_EFFORTS.includes(String(effort))) {
      return badRequest(`\`reasoning_effort\` must be one of ${GPT_OSS_EFFORTS.join(", ")} for model \`${model.id}\``);
    }
    if (format !== undefined) return badRequest(`\`reasoning_format\` is not supported with model \`${model.id}\``);
    const level = String(effort ?? "medium");
    const tokens = level === "low"
      ? 48 + Math.ceil(promptTokens / 100)
      : level === "medium"
      ? 200 + Math.ceil(promptTokens / 25)
      : 800 + Math.ceil(promptTokens / 8);
    return { tokens, shows: include === false ? "hidden" : "field", effort: level };
  }
  if (effort !== undefined && !QWEN_EFFORTS.includes(String(effort))) {
    return badRequest(`\`reasoning_effort\` must be one of ${QWEN_EFFORTS.join(", ")} for model \`${model.id}\``);
  }
  if (format !== undefined && !["raw", "parsed", "hidden"].includes(String(format))) {
    return badRequest("`reasoning_format` must be one of raw, parsed, hidden");
  }
  if (effort === "none") return { tokens: 0, shows: "hidden", effort: "none" };
  const shows = format === "hidden" || include === false
    ? "hidden"
    : format === "parsed" || include === true
    ? "field"
    : "think";
  return { tokens: 200 + Math.ceil(promptTokens / 25), shows, effort: String(effort ?? "default") };
}

/** What the model writes for one call, within its `max_tokens`. */
export interface Written {
  content: string;
  reasoning?: string;
  reasoningTokens: number;
  completionTokens: number;
  finish: "stop" | "length";
}

/**
 * Spends the reasoning first, then the answer, both counted against `max_tokens` (4 characters a token): when the
 * reasoning takes it all the answer is empty and the call ends `length`; a partial answer is cut and ends `length`.
 */
export function write(answer: string, think: Thinking, maxTokens: number, answerTokens?: number): Written {
  const wanted = answerTokens ?? Math.ceil(answer.length / 4);
  const reasoningTokens = Math.min(think.tokens, maxTokens);
  const room = maxTokens - reasoningTokens;
  const cut = wanted > room;
  const text = cut ? answer.slice(0, room * 4) : answer;
  const thought = "We need to answer from the transcript. ".repeat(Math.ceil(reasoningTokens / 10)).slice(
    0,
    reasoningTokens * 4,
  );
  return {
    content: think.shows === "think" && reasoningTokens > 0 ? `<think>\n${thought}\n</think>\n\n${text}` : text,
    reasoning: think.shows === "field" && reasoningTokens > 0 ? thought : undefined,
    reasoningTokens,
    completionTokens: reasoningTokens + Math.min(wanted, room),
    finish: cut ? "length" : "stop",
  };
}
