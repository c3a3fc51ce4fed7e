/** @module An answer writer on any chat-completion model: budgeted calls, language check, citations. */
import type { AnswerSpec, AnswerWriter, TranscriptSource } from "../../domain/ports.ts";
import { isAppError } from "../../domain/errors.ts";
import { AnswerShaper } from "./shaping/answer-shaper.ts";
import type { Completer } from "./calls/completer.ts";
import type { LlmBudget, Reservation } from "./budget/llm-budget.ts";
import { createTokenCalibration } from "./planning/calibration.ts";
import { type Allowance, draftAnswer } from "./planning/draft.ts";
import { isWrongLanguage } from "./shaping/language-check.ts";
import type { Drafting } from "./planning/types.ts";
import { createLinesKeeper, type LinesKeeper } from "../../domain/reading/transcript-lines.ts";
import { messages, promptContext, rewritePrompt } from "./planning/prompts.ts";
import { createRun } from "./calls/run.ts";
import { CHARGE_MARGIN } from "./calls/budgeted-call.ts";
import { dayWaitOn } from "./budget/fair-share.ts";
import type { ReasoningRoom } from "./models/reasoning.ts";

export interface LlmWriterOptions {
  /** Shown in the banner and logs, e.g. `groq:openai/gpt-oss-20b`. */
  name: string;
  /** The model's id, said with every answer it writes (the request log's `model`). */
  model?: string;
  completer: Completer;
  /** The provider's budget, which every call passes through. */
  budget: LlmBudget;
  /** The model's context window: input and output of one call together. */
  contextTokens: number;
  /** Optional cap on the input tokens of one call, prompt included. */
  inputTokenBudget?: number;
  /** `max_tokens` of the final call. */
  maxOutputTokens: number;
  /** Most calls in flight at once for one answer. */
  concurrency: number;
  /** Most time spent waiting between retries for one answer. */
  retryBudgetMs: number;
  /** Most 429s one call waits out (`LLM_MAX_RETRIES`). */
  maxRetries?: number;
  /** Deadline of an answer whose spec names none (ms from now). */
  defaultTimeoutMs?: number;
  now?: () => number;
  /** Room for a reasoning model's reasoning in every call (see `createReasoningRoom`); none for other models. */
  reasoning?: ReasoningRoom;
  /** Whether a 429 for the provider's day is waited out within the deadline (see `RunOptions.waitsOutDay`). */
  waitsOutDay?: boolean;
  /** Where a detail's second reading of the video is fetched (see `findSearchTerms`); none without it. */
  readings?: TranscriptSource;
  /**
   * Where each transcript's lines and scores are kept while it lives, shared by the writers of a chain and counted by
   * the transcript cache (see `createLinesKeeper`); a keeper of this writer's own by default.
   */
  linesOf?: LinesKeeper;
}

/**
 * An answer writer on any chat-completion model that keeps the answer's
 * promises: it fits every call within the token budget (see `draftAnswer`),
 * checks the language and asks once for a rewrite when it is wrong, turns
 * stray Markdown into plain text for `text`, and keeps only citations of
 * moments that exist in the transcript. Usage is summed over every call.
 *
 * @returns the writer
 */
export function createLlmAnswerWriter(options: LlmWriterOptions): AnswerWriter {
  const now = options.now ?? Date.now;
  const calibration = createTokenCalibration();
  const latency = createLatencyRecord();
  // Every plan on a transcript reads the same lines and scores: the writer keeps them while the transcript lives (the
  // memory cache hands every request on a video the same transcript).
  const linesOf = options.linesOf ?? createLinesKeeper();
  return {
    name: options.name,
    async write(spec) {
      const deadline = spec.deadline ?? now() + (options.defaultTimeoutMs ?? 120_000);
      const reservation = options.budget.open(deadline, spec.holder);
      try {
        const language = spec.transcript.language;
        // Time a call needs to run: three times the slowest recent call (2 to 20 s), at most a fifth of the time left.
        const callAllowanceMs = () => Math.min(latency.lastCallAllowanceMs(), (deadline - now()) / 5);
        const run = createRun({
          completer: options.completer,
          concurrency: options.concurrency,
          retryBudgetMs: options.retryBudgetMs,
          signal: spec.signal,
          reservation,
          maxRateRetries: options.maxRetries,
          deadline,
          callAllowanceMs,
          count: calibration.counter(language),
          onCounted: (estimated, counted) => calibration.observe(language, estimated, counted),
          liveCount: () => calibration.counter(language),
          onAnswered: latency.record,
          reasoning: options.reasoning,
          waitsOutDay: options.waitsOutDay,
        });
        const shaper = shaperFor(spec, true);
        const job: Drafting = {
          run,
          spec,
          prompts: promptContext(spec),
          lines: linesOf(spec.transcript.cues),
          readings: options.readings,
          onText: spec.events && ((piece) => shaper.push(piece)),
        };
        const draft = await draftAnswer(job, allowance(options, reservation, callAllowanceMs));
        if (!spec.events) await shaper.push(draft.text);
        await shaper.end();
        const text = shaper.wrong
          ? await rewritten(job, shaper, unwrap(draft.text), options.maxOutputTokens)
          : shaper.text;
        return {
          text,
          usage: {
            ...run.usage,
            intent: spec.intent,
            plan: draft.plan,
            coverage: draft.coverage,
            budgetWaitMs: reservation.waitedMs,
            ...(options.model === undefined ? {} : { model: options.model }),
          },
        };
      } finally {
        reservation.close();
      }
    },
  };
}

/**
 * What a request may spend: calls up to the context window (and the
 * optional cap), never larger than the provider's whole window budget (a
 * 413); tokens that the budget can give before the last call must start,
 * leaving that call time to run: three times the slowest recent call (2 to
 * 20 s; 20 s until a call has been timed), and never more than a fifth of
 * the time left.
 */
function allowance(options: LlmWriterOptions, reservation: Reservation, lastCallMs: () => number): Allowance {
  const cap = options.inputTokenBudget === undefined
    ? Number.POSITIVE_INFINITY
    : options.inputTokenBudget + options.maxOutputTokens;
  return {
    output: options.maxOutputTokens,
    plan(choose) {
      return reservation.plan(reservation.deadline - lastCallMs(), ({ tokens, view, dayBound }) => {
        // Calls take their count plus a margin (see CHARGE_MARGIN): the plan leaves room for it, in the largest call
        // too, which the window must be able to hold whole (else it is never admitted: 503 with a minute's wait).
        const maxCallTokens = Math.min(
          options.contextTokens,
          cap,
          Math.floor(view.limits.tokensPerWindow / CHARGE_MARGIN),
        );
        return choose({
          maxCallTokens,
          tokens: Math.floor(tokens / CHARGE_MARGIN),
          tokensPerWindow: view.limits.tokensPerWindow,
          windowMs: view.windowMs,
          dayWaitMs: dayBound ? (needed) => dayWaitOn(view, needed) : undefined,
        });
      });
    },
  };
}

/**
 * What goes out of the model's text (see `AnswerShaper`): to the request's
 * events when it is streamed; the language is judged on the first answer only.
 */
function shaperFor(spec: AnswerSpec, judged: boolean): AnswerShaper {
  return new AnswerShaper({
    format: spec.outputFormat,
    cues: spec.transcript.cues,
    isWrongLanguage: judged ? (text) => isWrongLanguage(text, spec.language) : undefined,
    emit: spec.events && ((piece) => spec.events!.delta(piece)),
  });
}

/**
 * One corrective call when the answer is plainly in another language, in
 * its place: nothing of the first answer went out. The call sends the answer
 * only, not the transcript, so it is cheap; when it fails (or says nothing),
 * the first answer is sent rather than failing the request.
 */
async function rewritten(job: Drafting, first: AnswerShaper, text: string, maxTokens: number): Promise<string> {
  const { run, spec, prompts } = job;
  const shaper = shaperFor(spec, false);
  try {
    const rewrite = await run.call(
      messages(prompts, rewritePrompt(prompts, text)),
      maxTokens,
      spec.events && ((piece) => shaper.push(piece)),
    );
    if (!spec.events) await shaper.push(rewrite);
    await shaper.end();
    if (shaper.text !== "") return shaper.text;
  } catch (error) {
    if (!isAppError(error) || spec.signal?.aborted || shaper.text !== "") throw error;
  }
  first.release();
  return first.text;
}

/** Drops a fence or `<answer>` tags wrapped around the whole answer. */
function unwrap(text: string): string {
  const fenced = /^```(?:markdown|md|text)?[ \t]*\n([\s\S]*?)\n```$/i.exec(text.trim());
  const inner = fenced ? fenced[1]! : text;
  return inner.replace(/^\s*<answer>\s*/i, "").replace(/\s*<\/answer>\s*$/i, "").trim();
}

interface LatencyRecord {
  record(ms: number): void;
  /** Time to leave the last call: three times the slowest of the recent calls, within [2 s, 20 s]. */
  lastCallAllowanceMs(): number;
}

function createLatencyRecord(): LatencyRecord {
  const recent: number[] = [];
  return {
    record(ms) {
      recent.push(ms);
      if (recent.length > 20) recent.shift();
    },
    lastCallAllowanceMs:
      () => (recent.length === 0 ? 20_000 : Math.min(20_000, Math.max(2_000, 3 * Math.max(...recent)))),
  };
}
