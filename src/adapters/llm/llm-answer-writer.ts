import type { AnswerSpec, AnswerWriter } from "../../domain/ports.ts";
import { isAppError } from "../../domain/errors.ts";
import { checkCitations } from "./citations.ts";
import type { Completer } from "./completer.ts";
import type { CallBudget } from "./call-budget.ts";
import { draftAnswer } from "./draft.ts";
import { isWrongLanguage } from "./language-check.ts";
import { looksLikeMarkdown, markdownToPlainText } from "./plain-text.ts";
import { messages, rewritePrompt } from "./prompts.ts";
import { createRun, type Run } from "./run.ts";

export interface LlmWriterOptions {
  /** Shown in the banner and logs, e.g. `groq:llama-3.1-8b-instant`. */
  name: string;
  completer: Completer;
  /** Most input tokens of one call, prompt included. */
  inputTokenBudget: number;
  /** `max_tokens` of the final call. */
  maxOutputTokens: number;
  /** Most calls in flight at once for one answer. */
  concurrency: number;
  /** Most time spent waiting between retries for one answer. */
  retryBudgetMs: number;
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
  const budget: CallBudget = { input: options.inputTokenBudget, output: options.maxOutputTokens };
  return {
    name: options.name,
    async write(spec) {
      const run = createRun({ completer: options.completer, concurrency: options.concurrency, retryBudgetMs: options.retryBudgetMs, signal: spec.signal });
      const draft = unwrap(await draftAnswer(run, spec, budget));
      const text = await inLanguage(run, spec, draft, budget);
      const formatted = spec.outputFormat === "text" && looksLikeMarkdown(text) ? markdownToPlainText(text) : text;
      return { text: checkCitations(formatted, spec.transcript.cues), usage: { ...run.usage } };
    },
  };
}

/**
 * One corrective call when the answer is plainly in another language. The
 * call sends the answer only, not the transcript, so it is cheap; when it
 * fails, the first answer is kept rather than failing the request.
 */
async function inLanguage(run: Run, spec: AnswerSpec, text: string, budget: CallBudget): Promise<string> {
  if (!(await isWrongLanguage(text, spec.language))) return text;
  const context = { language: spec.language, format: spec.outputFormat };
  try {
    return unwrap(await run.call(messages(context, rewritePrompt(context, text)), budget.output)) || text;
  } catch (error) {
    if (isAppError(error) && !spec.signal?.aborted) return text;
    throw error;
  }
}

/** Drops a fence or `<answer>` tags wrapped around the whole answer. */
function unwrap(text: string): string {
  const fenced = /^```(?:markdown|md|text)?[ \t]*\n([\s\S]*?)\n```$/i.exec(text.trim());
  const inner = fenced ? fenced[1]! : text;
  return inner.replace(/^\s*<answer>\s*/i, "").replace(/\s*<\/answer>\s*$/i, "").trim();
}
