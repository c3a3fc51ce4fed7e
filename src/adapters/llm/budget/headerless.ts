/** @module What the budget learns from answers that state no limits at all (a local server, a gateway). */
import type { LimitReport } from "./limits-report.ts";
import type { Limits } from "./token-bucket.ts";

/**
 * The per-minute limits assumed for an endpoint until its answers state their own: the smallest figures Groq's free
 * plan publishes today (gpt-oss: 8,000 tokens and 30 requests a minute; see the model table).
 */
export const PROVISIONAL_LIMITS: Readonly<Limits> = { tokensPerWindow: 8_000, requestsPerWindow: 30 };

/** Limits of an endpoint taken to have none: too large to matter. */
export const NO_STATED_LIMIT = 1e12;

/** Answers in a row with no `x-ratelimit-*` figure after which the endpoint is taken to have no limits. */
export const HEADERLESS_ANSWERS_TO_UNPACE = 3;

/** Turns each answer's report into what the budget should learn from it. */
export interface HeaderlessRule {
  /**
   * @param refused the provider refused the call (a 429 or 413)
   * @returns the report to learn from (undefined: nothing to learn), and whether the limits are now known
   */
  judge(report: LimitReport, refused: boolean): { learn?: LimitReport; known: boolean };
}

/**
 * One answer without figures proves nothing: it may be a gateway's or a
 * proxy's page in front of a limited provider. The endpoint is unpaced only
 * after several such answers in a row, and never when the operator stated
 * the limits (`LLM_TOKENS_PER_MINUTE`): those then stand. Any stated figure
 * takes over at once, and a refusal without figures while unpaced puts the
 * assumed limits back.
 *
 * @param options.assumed the limits assumed until the provider states its own
 * @param options.operatorStated the operator set the limits; headerless answers keep them
 * @param options.answersToUnpace headerless answers in a row that unpace (3; 1 for a private endpoint, which has no
 *   gateway in front of a limited provider)
 */
export function createHeaderlessRule(
  options: { assumed: Limits; operatorStated?: boolean; answersToUnpace?: number },
): HeaderlessRule {
  const answersToUnpace = options.answersToUnpace ?? HEADERLESS_ANSWERS_TO_UNPACE;
  let inRow = 0;
  let unpaced = false;
  const assumed: LimitReport = {
    tokenLimit: options.assumed.tokensPerWindow,
    requestLimit: options.assumed.requestsPerWindow,
  };
  return {
    judge(report, refused) {
      const stated = Object.values(report).some((value) => value !== undefined);
      if (stated || refused) {
        inRow = 0;
        const back = unpaced && !stated;
        unpaced = false;
        return { learn: back ? assumed : report, known: stated };
      }
      if (options.operatorStated) return { known: true };
      inRow++;
      if (inRow < answersToUnpace) return { known: false };
      unpaced = true;
      // Unpaced by the day too: a day's limits assumed from a model table are no more stated than the minute's.
      const none = NO_STATED_LIMIT;
      return {
        learn: { tokenLimit: none, requestLimit: none, dayTokenLimit: none, dayRequestLimit: none },
        known: true,
      };
    },
  };
}
