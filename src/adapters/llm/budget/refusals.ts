/** @module The LLM budget's two refusals: its tokens short until after the deadline, or the provider's day spent. */
import { AppError } from "../../../domain/errors.ts";

/**
 * The budget cannot give a call or a plan its tokens before the request's deadline: refused at once (503
 * `overloaded`), with the time until it could.
 *
 * @param waitMs time until the budget has the tokens
 */
export function shortOfBudget(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    "overloaded",
    `The language model's token budget is used up until after this request's deadline; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
  );
}

/**
 * The provider's daily limit cannot serve the call before its deadline: refused as the provider's limit (503
 * `upstream_blocked`), with the time until the day has room again (a day at most).
 *
 * @param waitMs time until the day has the tokens (or the request)
 */
export function dayIsSpent(waitMs: number): AppError {
  const seconds = Math.min(86_400, Math.max(1, Math.ceil(waitMs / 1000)));
  return new AppError(
    "upstream_blocked",
    `The language model's daily limit for this server is spent; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
  );
}
