/** @module What reasoning models need: their request fields, room for reasoning tokens, no <think> in answers. */
import type { ReasoningEffort, ReasoningTraits, WireEffort } from "./model-table.ts";

/** Request fields that set how a model reasons and keep its reasoning out of the content. */
export interface ReasoningParams {
  reasoning_effort?: WireEffort;
  include_reasoning?: boolean;
  reasoning_format?: "hidden";
}

/**
 * @param traits how the model reasons (undefined: not a reasoning model, nothing is sent)
 * @param effort the service's setting
 * @param groq the endpoint speaks Groq's dialect, which alone knows `include_reasoning` and `reasoning_format`
 * @returns the fields to add to a chat completion request
 */
export function reasoningParams(
  traits: ReasoningTraits | undefined,
  effort: ReasoningEffort,
  groq: boolean,
): ReasoningParams {
  if (!traits) return {};
  const params: ReasoningParams = { reasoning_effort: traits.effortFor[effort] };
  // The two are mutually exclusive on Groq: one per way the reasoning appears.
  if (groq && traits.appears === "field") params.include_reasoning = false;
  if (groq && traits.appears === "think-tags") params.reasoning_format = "hidden";
  return params;
}

/** Room for reasoning tokens before the first answer has shown how many a call spends, by effort. */
const STARTING_ROOM: Readonly<Record<ReasoningEffort, number>> = { low: 512, medium: 2_048, high: 8_192 };

/** Learns how many tokens a model's reasoning takes, so that `max_tokens` leaves room for it. */
export interface ReasoningRoom {
  /** Tokens to add to a call's `max_tokens` for its reasoning (0 for a model that does not reason). */
  readonly tokens: number;
  /** The run reports here the reasoning tokens of an answered call. */
  observe(reasoningTokens: number): void;
  /** @returns the room for a call asked again after its reasoning used up the room it had */
  after(cutShort: { reasoningTokens: number; maxTokens: number }): number;
}

/**
 * Starts from the effort's usual spend (for a model known to reason; 0 otherwise), then keeps one and a half times
 * the most any of the last 20 calls spent, at least 128: reasoning varies from call to call, and a call cut short
 * costs a second one.
 *
 * @param reasons the model is known to reason
 */
export function createReasoningRoom(reasons: boolean, effort: ReasoningEffort): ReasoningRoom {
  const recent: number[] = [];
  let room = reasons ? STARTING_ROOM[effort] : 0;
  return {
    get tokens() {
      return room;
    },
    observe(reasoningTokens) {
      if (!(reasoningTokens > 0) && recent.length === 0 && !reasons) return;
      recent.push(Math.max(0, reasoningTokens));
      if (recent.length > 20) recent.shift();
      room = Math.max(128, Math.ceil(Math.max(...recent) * 1.5));
    },
    after({ reasoningTokens, maxTokens }) {
      this.observe(reasoningTokens);
      return Math.max(room, maxTokens * 2, Math.ceil(reasoningTokens * 2));
    },
  };
}

const THINK_BLOCK = /<think>[\s\S]*?(<\/think>\s*|$)/gi;

/** @returns the text without `<think>` blocks (an unclosed one runs to the end) */
export function withoutThinking(text: string): string {
  return text.includes("<think>") ? text.replace(THINK_BLOCK, "").trim() : text;
}

/**
 * Drops `<think>` blocks from a streamed text whose pieces may split a tag: text that could be the start of a tag is
 * held until the next piece tells.
 */
export function createThinkFilter(): { push(piece: string): string; end(): string } {
  let held = "";
  let thinking = false;
  // The whitespace after a closing tag is the block's, not the answer's.
  let afterBlock = false;
  const take = (): string => {
    let out = "";
    for (;;) {
      if (afterBlock && !thinking) {
        held = held.replace(/^\s+/, "");
        if (held === "") return out;
        afterBlock = false;
      }
      const tag = thinking ? "</think>" : "<think>";
      const at = held.indexOf(tag);
      if (at >= 0) {
        if (!thinking) out += held.slice(0, at);
        held = held.slice(at + tag.length);
        afterBlock = thinking;
        thinking = !thinking;
        continue;
      }
      const keep = partialTagLength(held, tag);
      if (!thinking) out += held.slice(0, held.length - keep);
      held = held.slice(held.length - keep);
      return out;
    }
  };
  return {
    push(piece) {
      held += piece;
      return take();
    },
    end() {
      const rest = thinking ? "" : held;
      held = "";
      return rest;
    },
  };
}

/** @returns the length of the longest end of `text` that begins `tag` */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
