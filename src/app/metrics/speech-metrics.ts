/** @module The speech-to-text metrics: uploads by outcome and the audio seconds they carried. */
import { Counter, type Registry } from "prom-client";
import type { SpeechObserver, UploadOutcome } from "../../adapters/speech/piece-transcription.ts";
import { batchedCounter, bind } from "./label-children.ts";

const OUTCOMES: UploadOutcome[] = ["ok", "429", "error"];

/**
 * @param registry where the metrics are registered
 * @returns the observer of speech-to-text uploads
 */
export function createSpeechMetrics(registry: Registry): SpeechObserver {
  const registers = [registry];
  const uploads = batchedCounter({
    name: "vcs_stt_uploads_total",
    help: "Speech-to-text uploads (audio pieces of caption-less videos) by outcome (ok, 429, error).",
    labelNames: ["outcome"],
    registers,
  });
  const seconds = new Counter({
    name: "vcs_stt_audio_seconds_total",
    help: "Seconds of audio transcribed by speech-to-text (uploads that succeeded).",
    registers,
  });
  const count = bind(OUTCOMES, (outcome) => uploads.child(outcome));
  return (outcome, audioSeconds) => {
    count[outcome].inc();
    if (outcome === "ok") seconds.inc(audioSeconds);
  };
}
