import type { AnswerUsage } from "../domain/ports.ts";

/**
 * The `Server-Timing` of a `/chat` answer (milliseconds), which browsers'
 * developer tools show: a cache hit has only `cache` and `total`.
 */
export function serverTiming(cache: string, timings: { transcriptMs: number; generationMs: number }, totalMs: number, usage?: AnswerUsage): string {
  const total = `total;dur=${totalMs.toFixed(1)}`;
  if (cache === "hit") return `cache;desc=hit, ${total}`;
  // The plan and the share of the transcript the model read, for whoever wonders why an answer took long.
  const plan = usage?.plan === undefined ? "" : `plan;desc=${usage.plan}, coverage;desc=${(usage.coverage ?? 1).toFixed(3)}, `;
  return `transcript;dur=${timings.transcriptMs.toFixed(1)}, generation;dur=${timings.generationMs.toFixed(1)}, ${plan}cache;desc=${cache}, ${total}`;
}
