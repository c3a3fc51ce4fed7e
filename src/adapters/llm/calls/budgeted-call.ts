/** @module One model call in its turn: admitted by the budget, sent, settled; a 429 waited out, reasoning widened. */
import type { TokenCounter } from "../../../domain/reading/chunking.ts";
import type { AnswerUsage } from "../../../domain/ports.ts";
import { AppError } from "../../../domain/errors.ts";
import { estimateTokens } from "../../../domain/reading/tokens.ts";
import { type CallPart, type Reservation, StalePlanError } from "../budget/reservation.ts";
import type { ReasoningRoom } from "../models/reasoning.ts";
import { type ChatMessage, promptTokens } from "./chat-message.ts";
import { type Completer, type Completion, type OnText, ProviderLimitError } from "./completer.ts";
import type { RetryBudget } from "./retry.ts";

/** What a call needs of its answer's run (see `createRun`). */
export interface CallContext {
  completer: Completer;
  /** The request's place in the provider's budget; every call is admitted through it. */
  reservation?: Reservation;
  reasoning?: ReasoningRoom;
  /** Most 429s one call waits out before the request gives up. */
  maxRateRetries: number;
  retryBudget: RetryBudget;
  /** Token counts over every call of the run, added to as each call is answered. */
  usage: AnswerUsage;
  onAnswered?: (ms: number) => void;
  onCounted?: (estimated: number, counted: number) => void;
  /** The counter a call's prompt is charged with now. */
  chargeCount(): TokenCounter;
  /** When a call may start at the latest: time enough left to run it before the deadline. */
  latestStart(): number;
  /** Whether the plan must be made again before a part of it is sent (see `StalePlanError`). */
  stalePlan(): boolean;
  /** Waits out a 429 when the wait fits; @throws the refusal's error when it does not */
  waitOut(retryAfterMs: number | undefined, attempt: number, error: ProviderLimitError): Promise<void>;
}

/** One call as asked (see `Run.call`). */
export interface CallAsk {
  messages: ChatMessage[];
  maxTokens: number;
  onText?: OnText;
  part?: CallPart;
  /** The run's signal when the call was asked: a failed batch cancels its own calls only. */
  signal: AbortSignal;
}

/**
 * Margin on a call's calibrated prompt count when it is taken from the budget (the rest is given back on the answer).
 */
export const CHARGE_MARGIN = 1.05;

/** Longest that a 429's retry-after holds back the other requests (the one refused waits it all, when it fits). */
const SHARED_BLOCK_MS = 10_000;

/**
 * Makes one call in its turn: admitted by the budget before its latest start, sent, and settled with what the
 * provider charged. A 429 is waited out while the deadline and the retries allow; a reasoning model that spent its
 * whole room reasoning is asked once more, with more. A part of a plan found stale is not sent.
 *
 * @returns the answer's text
 * @throws {StalePlanError} when the part's plan must be made again first
 */
export async function callInTurn(run: CallContext, ask: CallAsk): Promise<string> {
  const { reservation, reasoning } = run;
  const { maxTokens, part } = ask;
  // Only the parts of a plan (map calls) find it stale: a plan's single or last call, or a rewrite, go as planned.
  if (part && run.stalePlan()) throw new StalePlanError();
  // The calibration is learnt on transcript-heavy prompts; other shapes may count a little more: what is not charged
  // comes back.
  const prompt = Math.ceil(promptTokens(ask.messages, run.chargeCount()) * CHARGE_MARGIN);
  // A reasoning model's reasoning counts against max_tokens: the call has room for it besides its answer.
  let sentMax = maxTokens + (reasoning?.tokens ?? 0);
  let widened = false;
  let refused: ProviderLimitError | undefined;
  for (let refusals = 0;; refusals++) {
    const taken = prompt + sentMax;
    // After a 429, a turn that cannot come before the deadline is the provider's limit outlasting it.
    await reservation?.admit(taken, ask.signal, run.latestStart(), part).catch((error) => {
      throw refused ? refused.error : error;
    });
    // The turn may come after the first answers recalibrated the count: then the plan is made again before this is
    // sent.
    if (part && run.stalePlan()) {
      await reservation?.unsent(taken);
      throw new StalePlanError();
    }
    let completion: Completion;
    try {
      completion = await send(run, ask, { sentMax, taken });
    } catch (error) {
      if (!(error instanceof ProviderLimitError)) throw error;
      refused = error;
      await afterRefusal(run, ask, error, { taken, refusals });
      continue;
    }
    if (!completion.cutShort) {
      reasoning?.observe(completion.reasoningTokens ?? 0);
      return completion.text;
    }
    // Its reasoning took all the room: asked once more with more, in its turn (the deadline and budget hold).
    if (widened || !reasoning) throw cutShortError();
    widened = true;
    sentMax = maxTokens + reasoning.after({
      reasoningTokens: completion.reasoningTokens ?? completion.outputTokens,
      maxTokens: sentMax,
    });
    refusals--;
  }
}

/** Sends the call, settles what it took with what the provider charged, and adds its tokens to the run's usage. */
async function send(
  run: CallContext,
  ask: CallAsk,
  { sentMax, taken }: { sentMax: number; taken: number },
): Promise<Completion> {
  run.usage.calls++;
  const sent = performance.now();
  const completion = await run.completer.complete({
    messages: ask.messages,
    maxTokens: sentMax,
    signal: ask.signal,
    retryBudget: run.retryBudget,
    onText: ask.onText,
  });
  run.onAnswered?.(performance.now() - sent);
  await run.reservation?.settle(
    taken,
    completion.inputTokens ? completion.inputTokens + sentMax : undefined,
    completion.limits,
  );
  if (completion.inputTokens) run.onCounted?.(promptTokens(ask.messages), completion.inputTokens);
  run.usage.inputTokens += completion.inputTokens || promptTokens(ask.messages);
  run.usage.outputTokens += completion.outputTokens || estimateTokens(completion.text);
  return completion;
}

/**
 * A refused call was not charged: its tokens go back, and the budget takes the provider's word for the level. Then
 * the call waits its turn again, unless the request gives up here.
 *
 * @throws the refusal (a 413, a 429 too many or whose wait does not fit), or {StalePlanError} when the refusal stated
 *   other limits than the part's plan was made on
 */
async function afterRefusal(
  run: CallContext,
  ask: CallAsk,
  error: ProviderLimitError,
  { taken, refusals }: { taken: number; refusals: number },
): Promise<void> {
  const { reservation } = run;
  const { retryAfterMs, ...level } = error.report;
  // Every request holds back for a while (no stampede); this one waits the whole retry-after, if it fits.
  // A spent day blocks the day's budget instead (`dayRetryAfterMs`), for as long as the provider said.
  const block = retryAfterMs === undefined || level.dayRetryAfterMs !== undefined
    ? undefined
    : Math.min(retryAfterMs, SHARED_BLOCK_MS);
  await reservation?.settle(taken, 0, { ...level, retryAfterMs: block }, true);
  if (error.kind === "size") throw error;
  if (!reservation || refusals >= run.maxRateRetries) throw error.error;
  // The refusal stated other limits than the plan's: planned again at once, not after waiting.
  if (ask.part && reservation.stale) throw new StalePlanError();
  await run.waitOut(retryAfterMs, refusals, error);
}

/** A reasoning model spent all its room reasoning twice: nothing to answer with. */
function cutShortError(): AppError {
  return new AppError(
    "upstream_error",
    "The language model spent its whole answer on reasoning and wrote nothing; try again later",
  );
}
