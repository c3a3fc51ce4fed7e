import type { AnswerUsage } from "../../domain/ports.ts";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "../../domain/tokens.ts";
import type { Completer } from "./completer.ts";
import type { ChatMessage } from "./prompts.ts";
import { createRetryBudget, type RetryBudget } from "./retry.ts";

/** The state of one answer's calls: bound on concurrency, shared retry budget, summed usage, cancellation. */
export interface Run {
  /** Makes one call, waiting for a free slot first. */
  call(messages: ChatMessage[], maxTokens: number): Promise<string>;
  /** Runs `work` on every item; the first failure cancels the calls still running. */
  all<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>): Promise<R[]>;
  /** Token counts over every call so far. */
  readonly usage: AnswerUsage;
}

export interface RunOptions {
  completer: Completer;
  /** Most calls in flight at once. */
  concurrency: number;
  retryBudgetMs: number;
  signal?: AbortSignal;
}

/** @returns a fresh run for one answer */
export function createRun(options: RunOptions): Run {
  const usage: AnswerUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const retryBudget: RetryBudget = createRetryBudget(options.retryBudgetMs);
  const cancel = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
  const slots = createSlots(options.concurrency);

  return {
    usage,
    async call(messages, maxTokens) {
      return await slots.use(async () => {
        usage.calls++;
        const completion = await options.completer.complete({ messages, maxTokens, signal, retryBudget });
        usage.inputTokens += completion.inputTokens || promptTokens(messages);
        usage.outputTokens += completion.outputTokens || estimateTokens(completion.text);
        return completion.text;
      });
    },
    async all(items, work) {
      try {
        return await Promise.all(items.map(work));
      } catch (error) {
        cancel.abort(error);
        throw error;
      }
    },
  };
}

/** @returns the estimated input tokens of a call's messages */
export function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}

/** A counting semaphore. */
function createSlots(size: number): { use<T>(work: () => Promise<T>): Promise<T> } {
  let free = Math.max(1, size);
  const waiting: (() => void)[] = [];
  return {
    async use(work) {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else free++;
      }
    },
  };
}
