import type { AnswerWriter } from "../domain/ports.ts";
import { formatTimestamp, type Cue } from "../domain/transcript.ts";

/**
 * The embedded engine used without an LLM key: extractive, no model. A
 * summary is the transcript's opening passages; a question gets the passages
 * sharing the most words with it, with their timestamps.
 */
export function createOfflineAnswerWriter(): AnswerWriter {
  return {
    name: "offline",
    async write(spec) {
      const cues = spec.transcript.cues;
      const picked = spec.isSummary ? cues.slice(0, 5) : rankByOverlap(cues, spec.prompt).slice(0, 3);
      const lines = picked.map((cue) => `[${formatTimestamp(cue.start)}] ${cue.text}`);
      const text = spec.outputFormat === "markdown" ? lines.map((l) => `- ${l}`).join("\n") : lines.join("\n");
      return { text, usage: { calls: 0, inputTokens: 0, outputTokens: 0 } };
    },
  };
}

function rankByOverlap(cues: readonly Cue[], prompt: string): Cue[] {
  const words = new Set(prompt.toLowerCase().split(/\W+/u).filter((w) => w.length > 2));
  const score = (cue: Cue) => cue.text.toLowerCase().split(/\W+/u).filter((w) => words.has(w)).length;
  return [...cues].sort((a, b) => score(b) - score(a));
}
