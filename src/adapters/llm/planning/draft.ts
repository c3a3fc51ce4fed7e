/** @module The model's first answer by the cheapest plan the budget allows, replanned smaller after a 413. */
import { ProviderLimitError } from "../calls/completer.ts";
import { type PlanChoice, type ReadSoFar, StalePlanError } from "../budget/reservation.ts";
import { mapReduce } from "./map-reduce.ts";
import { choosePlan } from "./plan.ts";
import { findSearchTerms, nextTurn } from "./search-terms.ts";
import type { Drafting, Room } from "./types.ts";

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

/**
 * Plans on the room there is (for what is left to read, after a stale plan), then does the work: the answer's call,
 * streamed to the draft's reader, is every plan's last, after the notes of a map-reduce.
 */
async function draftOnce(job: Drafting, allowance: Allowance, prior?: ReadSoFar): Promise<Draft> {
  const work = await allowance.plan((room) => choosePlan(job, room, allowance.output, prior));
  if (work.kind === "search") {
    job.search = await findSearchTerms(job, work.trackLanguage);
    // The plan ranks the passages on what was found, in a turn of its own.
    await nextTurn();
    return draftOnce(job, allowance, prior);
  }
  const { ask, read } = work.kind === "answer" ? { ask: work.ask(), read: 1 } : await mapReduce(job, work.reading);
  job.spec.events?.progress({ stage: "writing" });
  const text = await job.run.call(ask, work.output, job.onText);
  return { text, plan: work.plan, coverage: work.kind === "answer" ? work.coverage : work.coverage(read) };
}
