/** @module Benchmark of a three-hour transcript through `POST /chat` against a fixed-latency fake LLM. */
/**
 * Benchmark: a three-hour transcript through POST /chat against a fake LLM
 * that takes a fixed time per call. Prints, per scenario, the wall time in
 * units of one call's latency (goal: under 3x), the number of calls, the
 * most input tokens in one call, and the input tokens sent relative to the
 * transcript's own tokens (goal: under 1.2x). The model is the fake's
 * `fake-model`, which states no limits. Loopback only; bounded.
 *
 * Run: bun bench/long-video.ts
 */
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "../src/domain/reading/tokens.ts";
import { type LlmCall, startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../tests/support/fixtures.ts";
import { captionXml, generateCues } from "../tests/support/long-transcript.ts";
import { postChat, startService } from "../tests/support/service/process.ts";

const LATENCY_MS = 200;
const HOURS = 3;
const KEY = "bench-key-0123456789";
// Notes as long as the map prompt allows (120 words), with a timestamp per line.
const NOTES = Array.from(
  { length: 8 },
  (_, i) => `- [${i}:00] The reviewer covers one more aspect of the device and how well it holds up.`,
).join("\n");
const FINAL =
  "The video reviews a tablet over three hours, topic by topic: battery, keyboard, screen, camera and more [0:00].";

const cues = generateCues(HOURS * 3600, { needleAt: HOURS * 3600 - 120 });
// The transcript's tokens: its spoken text alone, timestamps not counted.
const transcriptTokens = estimateTokens(cues.map((c) => c.text).join(" "));
const youtube = startFakeYoutube();
const llm = startFakeLlm();
youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
youtube.setCaption(VIDEOS.twoTracks.id, captionXml(generateCues(HOURS * 3600 - 60)));

const inputTokens = (call: LlmCall) =>
  call.messages.reduce((sum, m) => sum + estimateTokens(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);

async function scenario(label: string, concurrency: string | undefined, prompt: string): Promise<void> {
  const env: Record<string, string> = {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_bench",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
  };
  if (concurrency) env.LLM_CONCURRENCY = concurrency;
  const service = await startService(env);
  try {
    // Warm-up on another long video: a running server has compiled its code; a fresh one has not.
    llm.respondWith(() => ({ content: FINAL }));
    await postChat(service.url, { url: watchUrl("twoTracks"), prompt }, { "x-api-key": KEY });
    llm.reset();
    llm.respondWith((call) => ({
      content: call.text.includes("of a long video's transcript.\n<transcript>") ? NOTES : FINAL,
      delayMs: LATENCY_MS,
    }));
    const started = performance.now();
    const response = await postChat(service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": KEY });
    const wall = performance.now() - started;
    if (response.status !== 200) throw new Error(`${label}: HTTP ${response.status} ${await response.text()}`);
    const sent = llm.calls.reduce((sum, call) => sum + inputTokens(call), 0);
    const largest = Math.max(...llm.calls.map(inputTokens));
    console.log(
      `${label.padEnd(48)} wall ${(wall / LATENCY_MS).toFixed(2)}x one call (${
        wall.toFixed(0)
      } ms)  calls ${llm.calls.length}  peak concurrency ${llm.peakConcurrency}  ` +
        `largest call ${largest} tokens  input sent ${(sent / transcriptTokens).toFixed(2)}x transcript`,
    );
  } finally {
    await service.stop();
  }
}

console.log(
  `three-hour transcript: ${cues.length} cues, ${transcriptTokens} tokens (estimated); fake LLM latency ${LATENCY_MS} ms per call; ` +
    "model fake-model (unknown to the service's model table: an 8,192-token context), no rate limits",
);
try {
  await scenario("summary, default settings (LLM_CONCURRENCY 16)", undefined, "summary");
  await scenario("summary, LLM_CONCURRENCY=4", "4", "summary");
  await scenario("question on the last minutes (default)", undefined, "What is the secret ingredient of the recipe?");
} finally {
  await youtube.close();
  await llm.close();
}
