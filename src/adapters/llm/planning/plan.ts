/** @module Picks the cheapest plan for the room there is: one call, the passages that match, or the summary's plan. */
import type { AppError } from "../../../domain/errors.ts";
import { renderCues } from "../../../domain/reading/chunking.ts";
import { selectExcerpts } from "../../../domain/reading/relevance.ts";
import { createTranscriptLines, type TranscriptLines } from "../../../domain/reading/transcript-lines.ts";
import { type ChatMessage, promptTokens } from "../calls/chat-message.ts";
import type { PlanChoice, ReadSoFar } from "../budget/reservation.ts";
import { dayIsSpent, shortOfBudget } from "../budget/refusals.ts";
import {
  callBudget,
  type CallCosts,
  callCosts,
  excerptRoom,
  firmCost,
  limitsOf,
  linesTokens,
  type Plan,
  planSummary,
} from "./costs.ts";
import type { Reading } from "./map-reduce.ts";
import { answerAsk } from "./prompts.ts";
import { searchCost } from "./search-terms.ts";
import { answerLanguageOf } from "../../../domain/languages/languages.ts";
import { primary } from "../../offline/other-reading.ts";
import type { Drafting, Room } from "./types.ts";

/** The work a plan does, decided before its first call; `coverage` is the share of the transcript's tokens read. */
export type Work =
  /** The search call a detail on a long transcript makes first (see `findSearchTerms`); planned again after it. */
  | { kind: "search"; trackLanguage: string }
  | { kind: "answer"; ask: () => ChatMessage[]; output: number; plan: string; coverage: number }
  /** `coverage` from the share of the plan's lines the map-reduce read (parts may be left out, see `mapReduce`). */
  | { kind: "map-reduce"; reading: Reading; output: number; plan: string; coverage: (read: number) => number };

/** A plan: the tokens it holds, and its work. */
type Choice = PlanChoice<Work>;

/** What every step of a plan reads: the answer, its transcript, the room and the calls' costs. */
interface Planning {
  job: Drafting;
  transcript: TranscriptLines;
  room: Room;
  costs: CallCosts;
}

/**
 * The cheapest plan for the room there is (see `planSummary`): the whole transcript in one call; for a question
 * about a detail, the passages that match it; otherwise the summary's plan. After a stale plan (`prior`), the rest of
 * the transcript, combined with the notes already read.
 *
 * @param output `max_tokens` of the answer's call, as configured
 * @throws {AppError} `overloaded` or `upstream_blocked` when not even a small plan fits
 */
export function choosePlan(job: Drafting, room: Room, output: number, prior?: ReadSoFar): Choice {
  const transcript = job.lines ?? createTranscriptLines(job.spec.transcript.cues);
  // Every call is charged its max_tokens: on a small plan, an eighth of the window is room enough for an answer.
  const costs = callCosts(job, Math.min(output, Math.max(256, Math.floor(room.tokensPerWindow / 8))));
  const at = { job, transcript, room, costs };
  if (prior) return restOfVideo(at, prior);
  const fine = transcript.lines();
  const fineTokens = linesTokens(fine, job.run.count);
  return wholeInOneCall(at, fineTokens) ??
    (job.spec.intent === "detail" ? searchFirst(at) ?? matchingPassages(at, fineTokens) : undefined) ??
    summaryPlan(at);
}

/** The whole transcript in one call, when it fits. */
function wholeInOneCall({ job, transcript, room, costs }: Planning, tokens: number): Choice | undefined {
  const hold = costs.answerPrompt + tokens + costs.output + costs.reasoning;
  if (hold > room.maxCallTokens || hold > room.tokens) return undefined;
  const ask = () => answerAsk(job, renderCues(transcript.lines()));
  return { hold, value: { kind: "answer", ask, output: costs.output, plan: "one-call", coverage: 1 } };
}

/**
 * A detail on a transcript too long for one call first asks the model for the words the transcript likely uses (see
 * `findSearchTerms`), once, when the room holds that call and the answer's after it; undefined once asked, or when it
 * does not fit (the question's words alone then find the passages).
 */
function searchFirst(at: Planning): Choice | undefined {
  const { job, room, costs } = at;
  if (job.search) return undefined;
  const trackLanguage = primary(job.spec.transcript.language);
  const search = searchCost(job, trackLanguage);
  // The answer's call after it at its largest (its excerpts fill at most their share): ranking the passages here
  // as well would do, for a bound, the work the plan after the search does anyway.
  const answer = costs.answerPrompt + excerptRoom(costs, limitsOf(room), room.tokensPerWindow) + costs.output +
    costs.reasoning;
  if (search > room.maxCallTokens || search + answer > room.tokens) return undefined;
  return { hold: search + answer, value: { kind: "search", trackLanguage } };
}

/**
 * A detail is read from the passages that match it, in one call; undefined when none does. They are ranked on the
 * question's words and, once the model gave them, its search terms, both stemmed in the transcript's language.
 */
function matchingPassages({ job, transcript, room, costs }: Planning, tokens: number): Choice | undefined {
  const { run } = job;
  const share = excerptRoom(costs, limitsOf(room), room.tokensPerWindow);
  const carried = job.search?.carried;
  const query = {
    question: job.spec.prompt,
    language: answerLanguageOf(job.spec.transcript.language),
    searchWords: job.search?.words,
    carried,
  };
  const excerpts = selectExcerpts(transcript.lines(), query, share, run.count);
  if (!excerpts.matched) return undefined;
  const ask = answerAsk(job, excerpts.runs.map(renderCues).join("\n…\n"), "matches");
  const coverage = linesTokens(excerpts.runs.flat(), run.count) / Math.max(1, tokens);
  const plan = !job.search
    ? "excerpts"
    : `excerpts+${job.search.way === "terms" ? "terms" : "terms-failed"}${carried ? "+reading" : ""}`;
  return {
    hold: promptTokens(ask, run.count) + costs.output + costs.reasoning,
    value: { kind: "answer", ask: () => ask, output: costs.output, plan, coverage },
  };
}

/**
 * The summary's plan (see `planSummary`), for the summary and any request about the whole video: they plan on the
 * whole fair share. A detail no passage matches is read from a sample, within a third of the window: it must not
 * starve the others.
 */
function summaryPlan({ job, transcript, room, costs }: Planning): Choice {
  const limits = limitsOf(room);
  const fair = job.spec.intent !== "detail"
    ? limits
    : { ...limits, available: Math.min(limits.available, Math.max(3_000, Math.floor(room.tokensPerWindow / 3))) };
  const lines = transcript.lines("coarse");
  const plan = planSummary(lines, costs, fair, job.run.count, () => transcript.scores("coarse"));
  if (plan.shape === "refused") throw refusedFor(plan.retryAfterTokens, room);
  const oneCall = plan.shape === "one-call" || (plan.shape === "condensed" && plan.then === "one-call");
  const sampled = plan.shape === "condensed" ? "sampled" : undefined;
  const work: Work = oneCall
    ? {
      kind: "answer",
      ask: () => answerAsk(job, renderCues(plan.lines), sampled),
      output: costs.output,
      plan: describe(plan),
      coverage: plan.coverage,
    }
    : {
      kind: "map-reduce",
      reading: { lines: plan.lines, budget: callBudget(room, costs) },
      output: costs.output,
      plan: describe(plan),
      coverage: (read) => plan.coverage * read,
    };
  return {
    hold: plan.cost,
    value: work,
    reduced: plan.shape === "condensed",
    firm: firmCost(plan, costs, limits, job.run.count),
  };
}

/** After a stale plan: the rest of the transcript, planned on what is known now, and the notes already read. */
function restOfVideo(at: Planning, prior: ReadSoFar): Choice {
  const { job, transcript, room, costs } = at;
  const { run } = job;
  const coarse = transcript.lines("coarse");
  const total = linesTokens(coarse, run.count);
  const rest = coarse.filter((line) => line.start >= prior.until);
  const limits = limitsOf(room);
  const priorNotes = prior.notes.length * costs.notes;
  const plan = planSummary(rest, costs, { ...limits, available: limits.available - priorNotes }, run.count);
  if (plan.shape === "refused") return readSoFarOnly(at, prior, total, plan.retryAfterTokens);
  const restTokens = linesTokens(rest, run.count);
  const coverage = (read: number) =>
    Math.min(1, (prior.tokens + plan.coverage * read * restTokens) / Math.max(1, total));
  return {
    hold: plan.cost + priorNotes,
    value: {
      kind: "map-reduce",
      reading: { lines: plan.lines, budget: callBudget(room, costs), prior },
      output: costs.output,
      plan: `${describe(plan)}+replanned`,
      coverage,
    },
    reduced: plan.shape === "condensed",
    firm: firmCost(plan, costs, limits, run.count),
  };
}

/**
 * When the rest of the video no longer fits before the deadline, the answer from the notes already read: the request
 * has read the start of the video and answers from it (its coverage says how much) rather than failing after its wait.
 *
 * @param total tokens of the whole transcript's lines
 * @param short how many more tokens the rest's smallest plan needs than the room gives
 */
function readSoFarOnly({ room, costs }: Planning, prior: ReadSoFar, total: number, short: number): Choice {
  const hold = costs.combinePrompt + prior.notes.length * costs.notes + costs.output + costs.reasoning;
  if (hold > room.maxCallTokens || hold > room.tokens) throw refusedFor(short, room);
  const coverage = Math.min(1, prior.tokens / Math.max(1, total));
  return {
    hold,
    value: {
      kind: "map-reduce",
      reading: { lines: [], budget: callBudget(room, costs), prior },
      output: costs.output,
      plan: "read-so-far+replanned",
      coverage: () => coverage,
    },
    reduced: true,
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
