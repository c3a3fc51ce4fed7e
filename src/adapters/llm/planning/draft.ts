/** @module The model's first answer by the cheapest plan the budget allows, replanned smaller after a 413. */
import { AppError } from "../../../domain/errors.ts";
import { renderCues, transcriptLines } from "../../../domain/reading/chunking.ts";
import type { AnswerSpec } from "../../../domain/ports.ts";
import { selectExcerpts } from "../../../domain/reading/relevance.ts";
import { type OnText, ProviderLimitError } from "../calls/completer.ts";
import { mapReduce, NOTES_MAX_TOKENS } from "./map-reduce.ts";
import { type PlanChoice, type ReadSoFar, StalePlanError } from "../budget/reservation.ts";
import { type CallCosts, excerptRoom, firmCost, linesTokens, type Plan, type PlanLimits, planSummary } from "./plan.ts";
import { answerPrompt, combinePrompt, messages, partNotesPrompt, type PromptContext, promptTokens } from "./prompts.ts";
import type { Run } from "../calls/run.ts";
import { dayIsSpent } from "../budget/refusals.ts";

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
export async function draftAnswer(run: Run, spec: AnswerSpec, allowance: Allowance, onText?: OnText): Promise<Draft> {
  let prior: ReadSoFar | undefined;
  for (let replans = 0;; replans++) {
    try {
      return await draftOnce(run, spec, allowance, onText, prior);
    } catch (error) {
      // Planned on limits or counts the first answers contradicted: planned again for what is left to read (once per
      // request).
      if (error instanceof StalePlanError) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        run.replan();
        prior = error.read && error.read.notes.length > 0 ? error.read : undefined;
        continue;
      }
      if (!(error instanceof ProviderLimitError) || error.kind !== "size" || replans >= MAX_REPLANS) {
        throw error instanceof ProviderLimitError ? error.error : error;
      }
    }
  }
}

async function draftOnce(
  run: Run,
  spec: AnswerSpec,
  allowance: Allowance,
  onText?: OnText,
  prior?: ReadSoFar,
): Promise<Draft> {
  const job = await allowance.plan((
    room,
  ) => (prior
    ? chooseRest(run, spec, allowance.output, room, prior, onText)
    : choose(run, spec, allowance.output, room, onText))
  );
  return await job();
}

/** Picks the plan for the room there is: the tokens to hold, and the work that follows. */
function choose(
  run: Run,
  spec: AnswerSpec,
  output: number,
  room: Room,
  onText?: OnText,
): PlanChoice<() => Promise<Draft>> {
  const context: PromptContext = { language: spec.language, format: spec.outputFormat, title: spec.transcript.title };
  const ask = (transcript: string, excerpted?: "matches" | "sampled") =>
    messages(context, answerPrompt(context, { transcript, prompt: spec.prompt, intent: spec.intent, excerpted }));
  // Every call is charged its max_tokens: on a small plan, an eighth of the window is room enough for an answer.
  const costs = callCosts(run, spec, context, Math.min(output, Math.max(256, Math.floor(room.tokensPerWindow / 8))));
  const limits: PlanLimits = { maxCallTokens: room.maxCallTokens, available: room.tokens };
  const fine = transcriptLines(spec.transcript.cues);
  const fineTokens = linesTokens(fine, run.count);
  const oneCall = costs.answerPrompt + fineTokens + costs.output + costs.reasoning;
  if (oneCall <= room.maxCallTokens && oneCall <= room.tokens) {
    const value = async () => {
      spec.events?.progress({ stage: "writing" });
      return { text: await run.call(ask(renderCues(fine)), costs.output, onText), plan: "one-call", coverage: 1 };
    };
    return { hold: oneCall, value };
  }
  // A detail is read from the passages that match it; a request about the whole video is read as a summary is.
  if (spec.intent === "detail") {
    const excerpts = selectExcerpts(fine, spec.prompt, excerptRoom(costs, limits, room.tokensPerWindow), run.count);
    if (excerpts.matched) {
      const text = excerpts.runs.map(renderCues).join("\n…\n");
      const coverage = linesTokens(excerpts.runs.flat(), run.count) / Math.max(1, fineTokens);
      const value = async () => {
        spec.events?.progress({ stage: "writing" });
        return { text: await run.call(ask(text, "matches"), costs.output, onText), plan: "excerpts", coverage };
      };
      return { hold: promptTokens(ask(text, "matches"), run.count) + costs.output + costs.reasoning, value };
    }
  }
  // A detail no passage matches is read from a sample, within a third of the window: it must not starve the others. A
  // request about the whole video plans on the whole fair share, as the summary does.
  const fair = spec.intent !== "detail"
    ? limits
    : { ...limits, available: Math.min(limits.available, Math.max(3_000, Math.floor(room.tokensPerWindow / 3))) };
  const plan = planSummary(transcriptLines(spec.transcript.cues, "coarse"), costs, fair, run.count);
  if (plan.shape === "refused") throw shortOfBudget(plan.retryAfterTokens, room);
  const budget = { input: room.maxCallTokens - costs.output - costs.reasoning, output: costs.output };
  const value = async () => {
    const { text, read } = await runPlan(run, spec, context, plan, budget, onText);
    return { text, plan: describe(plan), coverage: plan.coverage * read };
  };
  return {
    hold: plan.cost,
    value,
    reduced: plan.shape === "condensed",
    firm: firmCost(plan, costs, limits, run.count),
  };
}

/** @returns the answer, and the share of the plan's lines read (parts may be left out, see `mapReduce`) */
/**
 * After a stale plan: the rest of the transcript, planned on what is known now, combined with the notes already read.
 */
function chooseRest(
  run: Run,
  spec: AnswerSpec,
  output: number,
  room: Room,
  prior: ReadSoFar,
  onText?: OnText,
): PlanChoice<() => Promise<Draft>> {
  const context: PromptContext = { language: spec.language, format: spec.outputFormat, title: spec.transcript.title };
  const costs = callCosts(run, spec, context, Math.min(output, Math.max(256, Math.floor(room.tokensPerWindow / 8))));
  const coarse = transcriptLines(spec.transcript.cues, "coarse");
  const total = linesTokens(coarse, run.count);
  const rest = coarse.filter((line) => line.start >= prior.until);
  const plan = planSummary(rest, costs, {
    maxCallTokens: room.maxCallTokens,
    available: room.tokens - prior.notes.length * costs.notes,
  }, run.count);
  if (plan.shape === "refused") throw shortOfBudget(plan.retryAfterTokens, room);
  const budget = { input: room.maxCallTokens - costs.output - costs.reasoning, output: costs.output };
  const value = async () => {
    const { text, read } = await mapReduce(run, spec, context, budget, plan.lines, onText, prior);
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
    firm: firmCost(plan, costs, { maxCallTokens: room.maxCallTokens, available: room.tokens }, run.count),
  };
}

async function runPlan(
  run: Run,
  spec: AnswerSpec,
  context: PromptContext,
  plan: Exclude<Plan, { shape: "refused" }>,
  budget: { input: number; output: number },
  onText?: OnText,
): Promise<{ text: string; read: number }> {
  const oneCall = plan.shape === "one-call" || (plan.shape === "condensed" && plan.then === "one-call");
  const sampled = plan.shape === "condensed" ? "sampled" : undefined;
  if (!oneCall) return await mapReduce(run, spec, context, budget, plan.lines, onText);
  spec.events?.progress({ stage: "writing" });
  return {
    text: await run.call(
      messages(
        context,
        answerPrompt(context, {
          transcript: renderCues(plan.lines),
          prompt: spec.prompt,
          intent: spec.intent,
          excerpted: sampled,
        }),
      ),
      budget.output,
      onText,
    ),
    read: 1,
  };
}

function callCosts(run: Run, spec: AnswerSpec, context: PromptContext, output: number): CallCosts {
  const tokens = (ask: Parameters<typeof promptTokens>[0]) => promptTokens(ask, run.count);
  return {
    answerPrompt: tokens(
      messages(
        context,
        answerPrompt(context, { transcript: "", prompt: spec.prompt, intent: spec.intent, excerpted: "sampled" }),
      ),
    ),
    notesPrompt: tokens(
      messages(
        context,
        partNotesPrompt(context, { transcript: "", index: 999, count: 999, prompt: spec.prompt, intent: spec.intent }),
        "notes",
      ),
    ),
    combinePrompt: tokens(
      messages(
        context,
        combinePrompt(context, { notes: "", prompt: spec.prompt, intent: spec.intent, partial: false }),
      ),
    ),
    output,
    notes: Math.min(NOTES_MAX_TOKENS, output),
    reasoning: run.reasoningRoom,
  };
}

function describe(plan: Exclude<Plan, { shape: "refused" }>): string {
  return plan.shape === "condensed" ? `condensed+${plan.then}` : plan.shape;
}

/**
 * @param tokens how many more tokens the smallest plan needs than the room gives
 * @returns `upstream_blocked` when the provider's daily limit is what is short, else `overloaded`
 */
function shortOfBudget(tokens: number, room: Room): AppError {
  if (room.dayWaitMs) return dayIsSpent(room.dayWaitMs(room.tokens + tokens));
  const seconds = Math.max(1, Math.ceil((tokens * room.windowMs) / room.tokensPerWindow / 1000));
  return new AppError(
    "overloaded",
    `The language model's token budget cannot serve this request before its deadline; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
  );
}
