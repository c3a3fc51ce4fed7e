/** @module The token limits of every LLM call. */
/** Token limits of every call. */
export interface CallBudget {
  /** Most input tokens of one call, prompt included. */
  input: number;
  /** `max_tokens` of the answer's final call. */
  output: number;
}
