/** @module Says plainly that the endpoint does not serve the configured model, and what to set instead. */
import { AppError } from "../../../domain/errors.ts";
import { RETIRED_MODELS } from "./model-table.ts";

/** The settings that name the model behind `chat-1.0`. */
export const MODEL_SETTINGS = "GROQ_MODEL (or LLM_MODEL)";

/**
 * @returns a sentence naming the model, why it is not served when known, and what to use instead
 */
export function unavailableModelAdvice(model: string, setting = MODEL_SETTINGS): string {
  const retired = RETIRED_MODELS[model];
  const why = retired ? ` (the provider retired it on ${retired.retiredOn})` : "";
  const instead = retired ? `, such as ${retired.replacement}` : "";
  return `the language model endpoint does not serve the model ${JSON.stringify(model)}${why}; set ${setting} to a ` +
    `model it serves${instead}`;
}

/** The endpoint does not serve the model (retired, or never served): a chain of models moves on to the next. */
export class ModelUnavailableError extends AppError {
  /**
   * @param model the model the endpoint refused
   * @param message the sentence for the caller (see {@linkcode unavailableModelAdvice})
   */
  constructor(readonly model: string, message: string, options: { cause?: unknown } = {}) {
    super("upstream_error", message, options);
  }
}

/**
 * A call refused because the endpoint does not serve the model: a configuration to change, never a failure to retry.
 *
 * @returns 502 `upstream_error` naming the model and the setting
 */
export function modelUnavailable(
  model: string,
  setting = MODEL_SETTINGS,
  options: { cause?: unknown } = {},
): ModelUnavailableError {
  const advice = unavailableModelAdvice(model, setting);
  return new ModelUnavailableError(model, `${advice[0]!.toUpperCase()}${advice.slice(1)}`, options);
}
