/** @module The model's first answer by the cheapest plan the budget allows, replanned smaller after a 413. */
import type { AppError } from "../../../domain/errors.ts";
import { renderCues, transcriptLines } from "../../../domain/reading/chunking.ts";
import { selectExcerpts } from "../../../domain/reading/relevance.ts";
import type { Cue } from "../../../domain/transcript.ts";
import { ProviderLimitError } from "../calls/completer.ts";
import { mapReduce, NOTES_MAX_TOKENS } from "./map-reduce.ts";
import { answerAsk, combineAsk, type Drafting, EMPTY_PART, notesAsk, writeAnswer } from "./drafting.ts";
import { type PlanChoice, type ReadSoFar, StalePlanError } from "../budget/reservation.ts";
import { type CallCosts, excerptRoom, firmCost, linesTokens, type Plan, type PlanLimits, planSummary } from "./plan.ts";
import { type ChatMessage, promptTokens } from "./prompts.ts";
import type { CallBudget } from "./call-budget.ts";
import { dayIsSpent, shortOfBudget } from "../budget/refusals.ts";

/** What the budget allows a request, as it stands when the request is planned. */
export interface Room {
  /** Largest single call (input and `max_tokens`): context window, optional cap, provider's window budget. */
  maxCallTokens: number;
  /** Tokens this request can get before it must start its last call. */
  tokens: number;
  tokensPerWindow: number;
  windowMs: number;
  /** Set when the provider's daily limit is what bounds `tokens`: ms until the day has that many tokens. */
  dayWaitMs?: (tokens: number) => number;
}

/** What the planner may spend. */
export interface Allowance {
  /** `max_tokens` of the answer's call. */
  output: number;
  /** Plans alone (see `Reservation.plan`): `choose` sees the room and says what to hold. */
  plan<T>(choose: (room: Room) => PlanChoice<T>): Promise<T>;
}

/** The model's first answer and how it was read. */
export interface Draft {
  text: string;
  plan: string;
  /** Share of the transcript's tokens the model read. */
  coverage: number;
}

/** How many times a 413 may shrink the plan before the request gives up. */
const MAX_REPLANS = 2;

/**
 * The model's first answer, by the cheapest plan the budget allows (see
 * `planSummary`): the whole transcript in one call; for a question about a
 * detail, the passages that match it; otherwise (the summary, any request
 * about the whole video) map-reduce, or a condensed transcript
 * when the whole cannot be read before the deadline. A 413 (a call larger
 * than the provider allows) teaches the budget the real limit and the
 * request is planned again, smaller; the same call is never sent twice. A
 * plan made on limits or token counts that its first answers contradicted
 * is made again, once, before it spends more (see `StalePlanError`).
 *
 * @throws {AppError} `overloaded` when not even a small plan fits before the deadline
 */
export async function draftAnswer(job: Drafting, allowance: Allowance): Promise<Draft> {
  let prior: ReadSoFar | undefined;
  for (let replans = 0;; replans++) {
    try {
      return await draftOnce(job, allowance, prior);
    } catch (error) {
      // Planned on limits or counts the first answers contradicted: planned again for what is left to read (once per
      // request).
      if (error instanceof StalePlanError) {
        if (job.spec.signal?.aborted) throw job.spec.signal.reason;
        job.run.replan();
        prior = error.read && error.read.notes.length > 0 ? error.read : undefined;
        continue;
      }
      if (!(error instanceof ProviderLimitError) || error.kind !== "size" || replans >= MAX_REPLANS) {
        throw error instanceof ProviderLimitError ? error.error : error;
      }
    }
  }
}

/** A plan: the tokens it holds, and the work that writes the draft. */
type Choice = PlanChoice<() => Promise<Draft>>;

/** Plans on the room there is (for what is left to read, after a stale plan), then does the work. */
async function draftOnce(job: Drafting, allowance: Allowance, prior?: ReadSoFar): Promise<Draft> {
  const work = await allowance.plan((room) => {
    // Every call is charged its max_tokens: on a small plan, an eighth of the window is room enough for an answer.
    const costs = callCosts(job, Math.min(allowance.output, Math.max(256, Math.floor(room.tokensPerWindow / 8))));
    return prior ? chooseRest(job, room, costs, prior) : choose(job, room, costs);
  });
  return await work();
}

/** Picks the cheapest plan for the room there is. */
function choose(job: Drafting, room: Room, costs: CallCosts): Choice {
  const lines = transcriptLines(job.spec.transcript.cues);
  const fine = { lines, tokens: linesTokens(lines, job.run.count) };
  return wholeInOneCall(job, room, costs, fine) ??
    (job.spec.intent === "detail" ? matchingPassages(job, room, costs, fine) : undefined) ??
    summaryPlan(job, room, costs);
}

/** The whole transcript in one call, when it fits. */
function wholeInOneCall(job: Drafting, room: Room, costs: CallCosts, fine: Lines): Choice | undefined {
  const hold = costs.answerPrompt + fine.tokens + costs.output + costs.reasoning;
  if (hold > room.maxCallTokens || hold > room.tokens) return undefined;
  const value = async () => {
    const text = await writeAnswer(job, answerAsk(job, renderCues(fine.lines)), costs.output);
    return { text, plan: "one-call", coverage: 1 };
  };
  return { hold, value };
}

/** A detail is read from the passages that match it, in one call; undefined when none does. */
function matchingPassages(job: Drafting, room: Room, costs: CallCosts, fine: Lines): Choice | undefined {
  const { run } = job;
  const limits = limitsOf(room);
  const excerpts = selectExcerpts(
    fine.lines,
    job.spec.prompt,
    excerptRoom(costs, limits, room.tokensPerWindow),
    run.count,
  );
  if (!excerpts.matched) return undefined;
  const ask = answerAsk(job, excerpts.runs.map(renderCues).join("\n…\n"), "matches");
  const coverage = linesTokens(excerpts.runs.flat(), run.count) / Math.max(1, fine.tokens);
  const value = async () => ({ text: await writeAnswer(job, ask, costs.output), plan: "excerpts", coverage });
  return { hold: promptTokens(ask, run.count) + costs.output + costs.reasoning, value };
}

/**
 * The summary's plan (see `planSummary`), for the summary and any request about the whole video: they plan on the
 * whole fair share. A detail no passage matches is read from a sample, within a third of the window: it must not
 * starve the others.
 */
function summaryPlan(job: Drafting, room: Room, costs: CallCosts): Choice {
  const limits = limitsOf(room);
  const fair = job.spec.intent !== "detail"
    ? limits
    : { ...limits, available: Math.min(limits.available, Math.max(3_000, Math.floor(room.tokensPerWindow / 3))) };
  const plan = planSummary(transcriptLines(job.spec.transcript.cues, "coarse"), costs, fair, job.run.count);
  if (plan.shape === "refused") throw refusedFor(plan.retryAfterTokens, room);
  const budget = callBudget(room, costs);
  const value = async () => {
    const { text, read } = await runPlan(job, plan, budget);
    return { text, plan: describe(plan), coverage: plan.coverage * read };
  };
  return {
    hold: plan.cost,
    value,
    reduced: plan.shape === "condensed",
    firm: firmCost(plan, costs, limits, job.run.count),
  };
}

/**
 * After a stale plan: the rest of the transcript, planned on what is known now, combined with the notes already read.
 */
function chooseRest(job: Drafting, room: Room, costs: CallCosts, prior: ReadSoFar): Choice {
  const { run } = job;
  const coarse = transcriptLines(job.spec.transcript.cues, "coarse");
  const total = linesTokens(coarse, run.count);
  const rest = coarse.filter((line) => line.start >= prior.until);
  const limits = limitsOf(room);
  const plan = planSummary(
    rest,
    costs,
    { ...limits, available: limits.available - prior.notes.length * costs.notes },
    run.count,
  );
  if (plan.shape === "refused") {
    const combined = priorNotesOnly(job, room, costs, prior, total);
    if (combined) return combined;
    throw refusedFor(plan.retryAfterTokens, room);
  }
  const budget = callBudget(room, costs);
  const value = async () => {
    const { text, read } = await mapReduce(job, { lines: plan.lines, budget, prior });
    const restTokens = linesTokens(rest, run.count);
    return {
      text,
      plan: `${describe(plan)}+replanned`,
      coverage: Math.min(1, (prior.tokens + plan.coverage * read * restTokens) / Math.max(1, total)),
    };
  };
  return {
    hold: plan.cost + prior.notes.length * costs.notes,
    value,
    reduced: plan.shape === "condensed",
    firm: firmCost(plan, costs, limits, run.count),
  };
}

/**
 * When the rest of the video no longer fits before the deadline, the answer from the notes already read: the request
 * has read the start of the video and answers from it (its coverage says how much) rather than failing after its wait.
 */
function priorNotesOnly(
  job: Drafting,
  room: Room,
  costs: CallCosts,
  prior: ReadSoFar,
  total: number,
): Choice | undefined {
  const hold = costs.combinePrompt + prior.notes.length * costs.notes + costs.output + costs.reasoning;
  if (hold > room.maxCallTokens || hold > room.tokens) return undefined;
  const value = async () => {
    const { text } = await mapReduce(job, { lines: [], budget: callBudget(room, costs), prior });
    return { text, plan: "read-so-far+replanned", coverage: Math.min(1, prior.tokens / Math.max(1, total)) };
  };
  return { hold, value, reduced: true };
}

/** @returns the answer, and the share of the plan's lines read (parts may be left out, see `mapReduce`) */
async function runPlan(
  job: Drafting,
  plan: Exclude<Plan, { shape: "refused" }>,
  budget: CallBudget,
): Promise<{ text: string; read: number }> {
  const oneCall = plan.shape === "one-call" || (plan.shape === "condensed" && plan.then === "one-call");
  if (!oneCall) return await mapReduce(job, { lines: plan.lines, budget });
  const sampled = plan.shape === "condensed" ? "sampled" : undefined;
  return { text: await writeAnswer(job, answerAsk(job, renderCues(plan.lines), sampled), budget.output), read: 1 };
}

/** Transcript lines and their tokens. */
interface Lines {
  lines: readonly Cue[];
  tokens: number;
}

/** The room as the plan's arithmetic sees it: the largest call, and the tokens there are. */
function limitsOf(room: Room): PlanLimits {
  return { maxCallTokens: room.maxCallTokens, available: room.tokens };
}

/** Each call's limits: the largest call less its output and reasoning, and the answer's `max_tokens`. */
function callBudget(room: Room, costs: CallCosts): CallBudget {
  return { input: room.maxCallTokens - costs.output - costs.reasoning, output: costs.output };
}

function callCosts(job: Drafting, output: number): CallCosts {
  const tokens = (ask: ChatMessage[]) => promptTokens(ask, job.run.count);
  return {
    answerPrompt: tokens(answerAsk(job, "", "sampled")),
    notesPrompt: tokens(notesAsk(job, EMPTY_PART)),
    combinePrompt: tokens(combineAsk(job, [], false)),
    output,
    notes: Math.min(NOTES_MAX_TOKENS, output),
    reasoning: job.run.reasoningRoom,
  };
}

function describe(plan: Exclude<Plan, { shape: "refused" }>): string {
  return plan.shape === "condensed" ? `condensed+${plan.then}` : plan.shape;
}

/**
 * @param tokens how many more tokens the smallest plan needs than the room gives
 * @returns `upstream_blocked` when the provider's daily limit is what is short, else `overloaded`
 */
function refusedFor(tokens: number, room: Room): AppError {
  if (room.dayWaitMs) return dayIsSpent(room.dayWaitMs(room.tokens + tokens));
  return shortOfBudget((tokens * room.windowMs) / room.tokensPerWindow);
}
