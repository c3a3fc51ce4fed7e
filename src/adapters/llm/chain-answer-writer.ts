/** @module A chain of models: the first that can serve a request writes its answer, the next when one cannot. */
import type { Answer, AnswerEvents, AnswerWriter } from "../../domain/ports.ts";
import { AppError, isAppError } from "../../domain/errors.ts";
import { ModelUnavailableError } from "./models/model-unavailable.ts";

/** One model of the chain: its id and its own writer (its own budget, reasoning and context window). */
export interface ChainLink {
  model: string;
  writer: AnswerWriter;
  /** How long until the model's budget may send anything (a 429's block, its day spent); 0 when it may now. */
  waitMs?: () => Promise<number>;
}

/** What the chain tells its observer: a model found retired (once per model). */
export interface ChainObserver {
  retired?(model: string, error: AppError): void;
}

/**
 * An answer writer over several models, tried in the order given (the first is the primary), except that a model whose
 * budget is held back (a 429's block, its day spent) is tried after those that may send now. A model whose budget
 * refuses the request at once (its day spent: 503 `upstream_blocked`; its window unable to fit the request before
 * its deadline: 503 `overloaded`) or that the endpoint does not serve (retired) hands the request to the next model
 * at once, as long as nothing of the answer has gone out. Each model's budget refuses without a call while its day is
 * spent (on every instance with Redis); a retired model is remembered and never called again by this process. When
 * every model refuses, the refusal with the soonest `Retry-After` is the answer.
 *
 * @param links the models in order, each with its own writer
 * @returns the writer, named after its models: `groq:a > groq:b`
 */
export function createChainAnswerWriter(links: readonly ChainLink[], observer: ChainObserver = {}): AnswerWriter {
  if (links.length === 0) throw new Error("Cannot build a chain of models as 'links' is empty: give at least one");
  if (links.length === 1) return links[0]!.writer;
  // By link, not by id: the same model id may be served by two endpoints, one of which retired it.
  const retired = new Map<ChainLink, AppError>();
  return {
    name: links.map((link) => link.writer.name).join(" > "),
    async write(spec) {
      const refusals: AppError[] = [];
      for (const link of await soonestFirst(links)) {
        const known = retired.get(link);
        if (known) {
          refusals.push(known);
          continue;
        }
        const watched = watchDeltas(spec.events);
        try {
          return withModel(await link.writer.write({ ...spec, events: watched.events }), link.model);
        } catch (error) {
          if (watched.sent || spec.signal?.aborted || !movesOn(error)) throw error;
          if (error instanceof ModelUnavailableError) {
            retired.set(link, error);
            observer.retired?.(link.model, error);
          }
          refusals.push(error);
        }
      }
      throw soonest(refusals);
    },
  };
}

/**
 * The models in the order they are tried: those whose budget may send now in the operator's order, then those held
 * back (a 429's block, a spent day), soonest first. A budget that cannot be read counts as ready.
 */
async function soonestFirst(links: readonly ChainLink[]): Promise<ChainLink[]> {
  const waits = await Promise.all(links.map((link) => link.waitMs?.().catch(() => 0) ?? 0));
  return links.map((link, i) => ({ link, wait: waits[i]!, i }))
    .sort((a, b) => a.wait - b.wait || a.i - b.i)
    .map(({ link }) => link);
}

/** A refusal the next model may not meet: this model's budget, or this model not served. */
function movesOn(error: unknown): error is AppError {
  if (error instanceof ModelUnavailableError) return true;
  return isAppError(error, "upstream_blocked") || isAppError(error, "overloaded");
}

/** Of every model's refusal, the one that may be retried soonest; a retired model's only when no other says when. */
function soonest(refusals: readonly AppError[]): AppError {
  const timed = refusals.filter((error) => error.retryAfterSeconds !== undefined);
  if (timed.length === 0) return refusals[0]!;
  return timed.reduce((best, error) => error.retryAfterSeconds! < best.retryAfterSeconds! ? error : best);
}

function withModel(answer: Answer, model: string): Answer {
  return answer.usage?.model
    ? answer
    : { ...answer, usage: { calls: 0, inputTokens: 0, outputTokens: 0, ...answer.usage, model } };
}

/** Passes a streamed answer's events on, noting whether any of its text went out (then no other model may write). */
function watchDeltas(events: AnswerEvents | undefined): { events?: AnswerEvents; readonly sent: boolean } {
  if (!events) return { sent: false };
  let sent = false;
  return {
    events: {
      progress: (progress) => events.progress(progress),
      delta(text) {
        sent = true;
        events.delta(text);
      },
    },
    get sent() {
      return sent;
    },
  };
}
