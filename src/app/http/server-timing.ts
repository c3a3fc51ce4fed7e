/** @module Builds the `Server-Timing` header of a chat answer. */
import type { AnswerUsage } from "../../domain/ports.ts";
import type { SpeechFacts } from "../../domain/transcript.ts";

/**
 * The `Server-Timing` of a `/chat` answer (milliseconds), which browsers'
 * developer tools show: a cache hit has only `cache` and `total`.
 */
export function serverTiming(
  cache: string,
  timings: { transcriptMs: number; generationMs: number },
  totalMs: number,
  usage?: AnswerUsage,
  speech?: SpeechFacts,
): string {
  const total = `total;dur=${totalMs.toFixed(1)}`;
  if (cache === "hit") return `cache;desc=hit, ${total}`;
  // How the prompt was read, the plan and the share of the transcript the model read, for whoever wonders why an
  // answer took long.
  const intent = usage?.intent === undefined ? "" : `intent;desc=${usage.intent}, `;
  const plan = usage?.plan === undefined
    ? ""
    : `plan;desc=${usage.plan}, coverage;desc=${(usage.coverage ?? 1).toFixed(3)}, `;
  // Which model of the chain wrote the answer.
  const model = usage?.model === undefined ? "" : `model;desc="${usage.model}", `;
  // Speech-to-text (part of the transcript's time) when the video had no captions.
  const stt = speech ? `stt;dur=${speech.sttMs.toFixed(1)};desc="${speech.audioSeconds}s audio", ` : "";
  return `transcript;dur=${timings.transcriptMs.toFixed(1)}, ${stt}generation;dur=${
    timings.generationMs.toFixed(1)
  }, ${intent}${plan}${model}cache;desc=${cache}, ${total}`;
}
