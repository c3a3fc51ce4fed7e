import Groq from "groq-sdk";
import { AppError } from "../domain/errors.ts";
import type { AnswerWriter } from "../domain/ports.ts";
import { renderCues, systemPrompt, userPrompt } from "./llm/prompts.ts";

export interface GroqWriterOptions {
  apiKey: string;
  /** OpenAI-compatible endpoint; Groq's when undefined. */
  baseUrl?: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  maxOutputTokens: number;
  fetch?: typeof fetch;
}

/** An answer writer on Groq's chat completions (or any OpenAI-compatible server). */
export function createGroqAnswerWriter(options: GroqWriterOptions): AnswerWriter {
  const client = new Groq({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: options.fetch,
  });
  return {
    name: `groq:${options.model}`,
    async write(spec) {
      const messages = [
        { role: "system" as const, content: systemPrompt(spec.language, spec.outputFormat) },
        {
          role: "user" as const,
          content: userPrompt({ title: spec.transcript.title, transcriptText: renderCues(spec.transcript.cues), prompt: spec.prompt, isSummary: spec.isSummary, language: spec.language }),
        },
      ];
      try {
        const completion = await client.chat.completions.create(
          { model: options.model, messages, max_tokens: options.maxOutputTokens, temperature: 0.2 },
          { signal: spec.signal },
        );
        const text = completion.choices[0]?.message?.content?.trim();
        if (!text) throw new AppError("upstream_error", "The language model returned an empty answer; try again");
        return {
          text,
          usage: { calls: 1, inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 },
        };
      } catch (error) {
        throw toAppError(error, options.timeoutMs);
      }
    },
  };
}

function toAppError(error: unknown, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Groq.APIConnectionTimeoutError) return new AppError("upstream_timeout", `The language model did not answer within ${timeoutMs / 1000} s; try again later`, { cause: error });
  if (error instanceof Groq.RateLimitError) return new AppError("upstream_blocked", "The language model is rate-limiting this server; try again later", { cause: error, retryAfterSeconds: 60 });
  if (error instanceof Groq.APIUserAbortError) return new AppError("upstream_timeout", "The request ran out of time while the language model was answering; try again later", { cause: error });
  return new AppError("upstream_error", "The language model failed to answer; try again later", { cause: error });
}
