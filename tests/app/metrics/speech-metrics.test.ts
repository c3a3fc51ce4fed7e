/** @module Tests of speech-metrics.ts: uploads by outcome and audio seconds in the exposition. */
import { describe, expect, test } from "bun:test";
import { Registry } from "prom-client";
import { createSpeechMetrics } from "../../../src/app/metrics/speech-metrics.ts";

describe("createSpeechMetrics", () => {
  test("counts uploads by outcome (each at 0 from the start) and the audio seconds of the uploads that succeeded", async () => {
    const registry = new Registry();
    const observe = createSpeechMetrics(registry);
    expect(await registry.metrics()).toMatch(/^vcs_stt_uploads_total\{outcome="429"\} 0$/m);
    observe("ok", 20.5);
    observe("ok", 18);
    observe("429", 20);
    const text = await registry.metrics();
    expect(text).toMatch(/^vcs_stt_uploads_total\{outcome="ok"\} 2$/m);
    expect(text).toMatch(/^vcs_stt_uploads_total\{outcome="429"\} 1$/m);
    expect(text).toMatch(/^vcs_stt_uploads_total\{outcome="error"\} 0$/m);
    expect(text).toMatch(/^vcs_stt_audio_seconds_total 38.5$/m);
  });
});
