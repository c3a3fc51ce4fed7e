/** @module The shapes the planner's steps share: the answer's drafting, the room it plans in, each call's limits. */
import type { AnswerSpec, TranscriptSource } from "../../../domain/ports.ts";
import type { TranscriptLines } from "../../../domain/reading/transcript-lines.ts";
import type { OnText } from "../calls/completer.ts";
import type { Run } from "../calls/run.ts";
import type { PromptContext } from "./prompts.ts";

/** One answer's drafting, as every step of the planner passes it on. */
export interface Drafting {
  /** The answer's calls go through it. */
  run: Run;
  spec: AnswerSpec;
  /** What every prompt of the answer shares (see `promptContext`). */
  prompts: PromptContext;
  /** Where the answer's text streams: the last call's only. */
  onText?: OnText;
  /**
   * The transcript's lines and scores, kept by the writer for every answer on the same transcript; each plan makes
   * its own when none is given.
   */
  lines?: TranscriptLines;
  /** The model's search terms for a detail on a long transcript, once asked (see `findSearchTerms`). */
  search?: SearchTerms;
  /** Where another reading of the video is fetched (the request's transcript source), when the writer has one. */
  readings?: TranscriptSource;
}

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

/** Token limits of every call. */
export interface CallBudget {
  /** Most input tokens of one call, prompt included. */
  input: number;
  /** `max_tokens` of the answer's final call. */
  output: number;
}

/** How a detail's passages are looked for on a long transcript, beside the question's own words. */
export interface SearchTerms {
  /**
   * `terms`: ranked on the model's search terms beside the question's own words; `failed`: the search call failed,
   * ranked on the question's words alone, as when no search is made.
   */
  way: "terms" | "failed";
  /** The model's words, cut to one line's worth; absent when the call failed. */
  words?: string;
  /**
   * The question's scores found on the video read in its own language, when that differs from the transcript's,
   * carried onto the transcript's passages (see `carriedScores`).
   */
  carried?: readonly number[];
}
