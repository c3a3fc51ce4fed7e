/** @module Reads the speech-to-text settings: off unless `STT=groq`, which needs `LLM_API_KEY` (or `GROQ_API_KEY`). */
import type { EnvReader } from "./readers.ts";

/** Speech-to-text of caption-less videos; undefined in `Config` when `STT=off`. */
export interface SttConfig {
  provider: "groq";
  /** `STT_MODEL`. */
  model: string;
  /** `STT_MAX_MINUTES`: longer videos are refused before any download. */
  maxMinutes: number;
  /** `STT_CHUNK_BYTES`: most bytes of one upload. */
  chunkBytes: number;
  /**
   * `STT_AUDIO_SECONDS_PER_HOUR` and `STT_REQUESTS_PER_MINUTE`: the provider's limits assumed until it states its own.
   */
  audioSecondsPerHour: number;
  requestsPerMinute: number;
  /** `STT_BUDGET_WINDOW_MS`: the audio-seconds window (an hour; tests shorten it); requests are per 1/60 of it. */
  budgetWindowMs: number;
  /** `YOUTUBE_AUDIO_CLIENTS`: asked when the primary client offers no direct audio URL. */
  audioClients: { name: string; version: string }[];
}

/**
 * @param read the environment reader (problems are collected, not thrown)
 * @param hasLlmKey whether `LLM_API_KEY` (or `GROQ_API_KEY`) is set: `STT=groq` without it is a configuration error
 * @param audioClients `YOUTUBE_AUDIO_CLIENTS`, as read with the other YouTube settings
 * @returns the settings, or undefined when speech-to-text is off
 */
export function readStt(
  read: EnvReader,
  hasLlmKey: boolean,
  audioClients: { name: string; version: string }[],
): SttConfig | undefined {
  const provider = read.oneOf("STT", ["off", "groq"] as const, "off");
  const config: SttConfig = {
    provider: "groq",
    model: read.string("STT_MODEL", "whisper-large-v3-turbo"),
    maxMinutes: read.int("STT_MAX_MINUTES", 120, { min: 1, max: 24 * 60 }),
    // Groq's free plan takes 25 MB per upload (its dev tier 100 MB).
    chunkBytes: read.int("STT_CHUNK_BYTES", 24_000_000, { min: 10_000, max: 100_000_000 }),
    audioSecondsPerHour: read.int("STT_AUDIO_SECONDS_PER_HOUR", 7_200, { min: 60, max: 1_000_000_000 }),
    requestsPerMinute: read.int("STT_REQUESTS_PER_MINUTE", 20, { min: 1, max: 1_000_000 }),
    budgetWindowMs: read.int("STT_BUDGET_WINDOW_MS", 3_600_000, { min: 6_000, max: 86_400_000 }),
    audioClients,
  };
  if (provider === "off") return undefined;
  if (!hasLlmKey) {
    read.fail(
      "STT=groq needs LLM_API_KEY (or GROQ_API_KEY): the offline engine has no speech-to-text " +
        "(set the key, or STT=off)",
    );
  }
  return config;
}
