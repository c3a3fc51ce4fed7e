/** @module One answer's drafting as the planner passes it on, and the messages of each kind of call it makes. */
import type { AnswerSpec } from "../../../domain/ports.ts";
import type { OnText } from "../calls/completer.ts";
import type { Run } from "../calls/run.ts";
import {
  answerPrompt,
  type ChatMessage,
  combinePrompt,
  messages,
  partNotesPrompt,
  type PromptContext,
} from "./prompts.ts";

/** One answer's drafting, as every step of the planner passes it on. */
export interface Drafting {
  /** The answer's calls go through it. */
  run: Run;
  spec: AnswerSpec;
  /** What every prompt of the answer shares (see `promptContext`). */
  prompts: PromptContext;
  /** Where the answer's text streams: the last call's only. */
  onText?: OnText;
}

/** A map call's part with no transcript and the widest numbers: what every map call costs besides its text. */
export const EMPTY_PART = { transcript: "", index: 999, count: 999 };

/** The messages of a one-call answer; `excerpted` when only parts of the transcript are sent. */
export function answerAsk(job: Drafting, transcript: string, excerpted?: "matches" | "sampled"): ChatMessage[] {
  return messages(job.prompts, answerPrompt(job.prompts, { transcript, excerpted }));
}

/** The messages of a map call: notes on one part. */
export function notesAsk(job: Drafting, part: { transcript: string; index: number; count: number }): ChatMessage[] {
  return messages(job.prompts, partNotesPrompt(job.prompts, part), "notes");
}

/** The messages of a reduce call: the answer from the notes, or (`partial`) shorter notes. */
export function combineAsk(job: Drafting, notes: readonly string[], partial: boolean): ChatMessage[] {
  const user = combinePrompt(job.prompts, { notes: notes.join("\n\n"), partial });
  return messages(job.prompts, user, partial ? "notes" : "answer");
}

/** Makes the answer's call, streamed to the draft's reader. */
export async function writeAnswer(job: Drafting, ask: ChatMessage[], maxTokens: number): Promise<string> {
  job.spec.events?.progress({ stage: "writing" });
  return await job.run.call(ask, maxTokens, job.onText);
}
