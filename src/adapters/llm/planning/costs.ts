/** @module The token arithmetic of plans: what each call costs, which shape (one call, map-reduce, condensed) fits. */
import { cueLine } from "../../../domain/reading/chunking.ts";
import { condenseLines } from "../../../domain/reading/condense.ts";
import type { TokenCounter } from "../../../domain/reading/chunking.ts";
import { estimateTokens } from "../../../domain/reading/tokens.ts";
import type { Cue } from "../../../domain/transcript.ts";
import { NOTES_MAX_TOKENS, type PromptCosts, promptCosts } from "./prompts.ts";
import type { CallBudget, Drafting, Room } from "./types.ts";

/** The fixed costs of each kind of call, in tokens, as the prompts are written. */
export interface CallCosts extends PromptCosts {
  /** `max_tokens` of the answer's call. */
  output: number;
  /** `max_tokens` of a map call (its notes are at most this long). */
  notes: number;
  /** Tokens every call adds to its `max_tokens` for a reasoning model's reasoning (0 for other models). */
  reasoning: number;
}

/** The shape of the work, chosen before the first call. */
export type Plan =
  | { shape: "one-call" | "map-reduce"; lines: Cue[]; cost: number; coverage: number }
  | { shape: "condensed"; then: "one-call" | "map-reduce"; lines: Cue[]; cost: number; coverage: number }
  | { shape: "refused"; retryAfterTokens: number; cost: number; coverage: 0 };

export interface PlanLimits {
  /**
   * Largest single call, input and `max_tokens` together (the context window, or the provider's whole window budget).
   */
  maxCallTokens: number;
  /** Tokens the budget can give this request before its deadline. */
  available: number;
}

/** A summary shorter than this, in transcript tokens, is not worth sending: refuse instead. */
const MIN_READ_TOKENS = 400;

/**
 * Picks the cheapest shape that reads the whole transcript within the
 * budget: one call, else map-reduce; when neither fits, a condensed
 * transcript (the most informative lines, spread evenly over the whole
 * timeline, first and last kept) as large as the budget allows, read in one
 * call or a small map-reduce. `refused` when even a small one does not fit.
 *
 * @param lines the transcript as lines (see `transcriptLines`)
 * @param scores the lines' TextRank scores, when they are kept (see `TranscriptLines`)
 */
export function planSummary(
  lines: readonly Cue[],
  costs: CallCosts,
  limits: PlanLimits,
  count: TokenCounter = estimateTokens,
  scores?: () => readonly number[],
): Plan {
  const total = linesTokens(lines, count);
  const fits = (tokens: number) => costOf(tokens, costs, limits) <= limits.available;
  if (fits(total)) {
    const cost = costOf(total, costs, limits);
    return {
      shape: oneCallFits(total, costs, limits) ? "one-call" : "map-reduce",
      lines: [...lines],
      cost,
      coverage: 1,
    };
  }
  const target = largestFitting(total, fits);
  if (target < Math.min(total, MIN_READ_TOKENS)) {
    const smallest = Math.min(total, MIN_READ_TOKENS);
    return {
      shape: "refused",
      retryAfterTokens: costOf(smallest, costs, limits) - limits.available,
      cost: 0,
      coverage: 0,
    };
  }
  const condensed = condenseLines(lines, target, count, scores);
  const then = oneCallFits(condensed.tokens, costs, limits) ? "one-call" : "map-reduce";
  return {
    shape: "condensed",
    then,
    lines: condensed.lines,
    cost: costOf(condensed.tokens, costs, limits),
    coverage: condensed.tokens / Math.max(1, total),
  };
}

/**
 * Tokens of transcript a one-call answer may carry: all the call allows,
 * but, for a question, no more than a share of the provider's window
 * (the best-matching passages come first), so that concurrent questions
 * on a small plan all fit.
 */
export function excerptRoom(costs: CallCosts, limits: PlanLimits, tokensPerWindow: number): number {
  const fixed = costs.answerPrompt + costs.output + costs.reasoning;
  const room = limits.maxCallTokens - fixed;
  const share = Math.max(600, Math.floor(tokensPerWindow / 10));
  return Math.max(0, Math.min(room, share, limits.available - fixed));
}

/**
 * The part of a plan's cost it cannot do without: all of a one-call plan;
 * of a map-reduce, the first part and the combining call (the parts after
 * it may be left out when the budget runs short).
 */
export function firmCost(
  plan: Exclude<Plan, { shape: "refused" }>,
  costs: CallCosts,
  limits: PlanLimits,
  count: TokenCounter = estimateTokens,
): number {
  const tokens = linesTokens(plan.lines, count);
  if (oneCallFits(tokens, costs, limits)) return plan.cost;
  const parts = Math.ceil(tokens / partRoom(costs, limits));
  const part = Math.ceil(tokens / parts) + costs.notesPrompt + costs.notes + costs.reasoning;
  return Math.min(plan.cost, part + costs.combinePrompt + parts * costs.notes + costs.output + costs.reasoning);
}

/**
 * @param output `max_tokens` of the answer's call
 * @returns each kind of call's costs for the answer `job`, as its run counts tokens
 */
export function callCosts(job: Drafting, output: number): CallCosts {
  return {
    ...promptCosts(job, job.run.count),
    output,
    notes: Math.min(NOTES_MAX_TOKENS, output),
    reasoning: job.run.reasoningRoom,
  };
}

/** Each call's limits: the largest call less its output and reasoning, and the answer's `max_tokens`. */
export function callBudget(room: Room, costs: CallCosts): CallBudget {
  return { input: room.maxCallTokens - costs.output - costs.reasoning, output: costs.output };
}

/** The room as the plan's arithmetic sees it: the largest call, and the tokens there are. */
export function limitsOf(room: Room): PlanLimits {
  return { maxCallTokens: room.maxCallTokens, available: room.tokens };
}

/** @returns tokens of the lines as sent (each line and its newline) */
export function linesTokens(lines: readonly Cue[], count: TokenCounter = estimateTokens): number {
  return lines.reduce((sum, line) => sum + count(cueLine(line)) + 1, 0);
}

function oneCallFits(tokens: number, costs: CallCosts, limits: PlanLimits): boolean {
  return costs.answerPrompt + tokens + costs.output + costs.reasoning <= limits.maxCallTokens;
}

/** Transcript tokens one map call carries: each part leaves room for the answer's `max_tokens`, as the reduce call. */
function partRoom(costs: CallCosts, limits: PlanLimits): number {
  return Math.max(1, limits.maxCallTokens - costs.notesPrompt - costs.output - costs.reasoning);
}

/** Tokens a plan reading `tokens` of transcript takes from the budget, every call's `max_tokens` included. */
function costOf(tokens: number, costs: CallCosts, limits: PlanLimits): number {
  if (oneCallFits(tokens, costs, limits)) return costs.answerPrompt + tokens + costs.output + costs.reasoning;
  const parts = Math.ceil(tokens / partRoom(costs, limits));
  const mapped = tokens + parts * (costs.notesPrompt + costs.notes + costs.reasoning);
  const reduced = costs.combinePrompt + parts * costs.notes + costs.output + costs.reasoning;
  // Notes too long for one reduce call are merged first: about one more pass over them.
  const merging = reduced > limits.maxCallTokens ? parts * costs.notes * 2 : 0;
  return mapped + reduced + merging;
}

/** The largest count in [0, total] for which `fits` holds (it is monotone). */
function largestFitting(total: number, fits: (tokens: number) => boolean): number {
  let low = 0;
  let high = total;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}
