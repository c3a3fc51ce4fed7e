import { renderCues, transcriptLines } from "../../domain/chunking.ts";
import type { AnswerSpec } from "../../domain/ports.ts";
import { selectExcerpts } from "../../domain/relevance.ts";
import type { CallBudget } from "./call-budget.ts";
import { mapReduce } from "./map-reduce.ts";
import { answerPrompt, messages, type PromptContext } from "./prompts.ts";
import { promptTokens, type Run } from "./run.ts";

/**
 * The model's first answer, by the cheapest plan that fits the budget:
 * the whole transcript in one call; for a question on a long video, the
 * passages that match it in one call; otherwise map-reduce over chunks.
 *
 * @returns the answer as the model wrote it
 */
export async function draftAnswer(run: Run, spec: AnswerSpec, budget: CallBudget): Promise<string> {
  const context: PromptContext = { language: spec.language, format: spec.outputFormat, title: spec.transcript.title };
  const ask = (transcript: string, excerpted: boolean) => messages(context, answerPrompt(context, { transcript, prompt: spec.prompt, isSummary: spec.isSummary, excerpted }));
  const lines = transcriptLines(spec.transcript.cues);
  const room = budget.input - promptTokens(ask("", true));
  const whole = ask(renderCues(lines), false);
  if (promptTokens(whole) <= budget.input) return await run.call(whole, budget.output);
  if (!spec.isSummary) {
    const excerpts = selectExcerpts(lines, spec.prompt, room);
    if (excerpts.matched) return await run.call(ask(excerpts.runs.map(renderCues).join("\n…\n"), true), budget.output);
  }
  return await mapReduce(run, spec, context, budget, transcriptLines(spec.transcript.cues, "coarse"));
}
