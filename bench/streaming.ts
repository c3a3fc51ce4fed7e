/** @module Benchmark of a streamed answer's time to first byte, first delta and end against a JSON answer. */
/**
 * Time to first byte, to the first `delta`, and to the end of a streamed
 * answer, against a non-streamed request's total, in the same run:
 * `bun bench/streaming.ts [youtubeLatencyMs] [firstTokenMs] [chunkMs] [samples]`.
 *
 * The loopback fake YouTube answers each request after `youtubeLatencyMs`
 * (150 by default; a cold transcript is two sequential requests); the fake
 * LLM sends its first token after `firstTokenMs` (300) and then the answer
 * in 8-character chunks `chunkMs` (4) apart, about 500 tokens a second
 * (Groq's small models write faster still); a non-streamed answer arrives
 * whole after the same time. A one-call answer of three short paragraphs. Caches off, so each request is cold;
 * streamed and non-streamed requests alternate; `text` and `markdown` are
 * measured separately (`text` goes out a paragraph at a time, `markdown` a
 * line at a time). Loopback only; under a minute.
 */
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { watchUrl } from "../tests/support/fixtures.ts";
import { startService } from "../tests/support/service/process.ts";

const youtubeLatencyMs = Number(process.argv[2] ?? 150);
const firstTokenMs = Number(process.argv[3] ?? 300);
const chunkMs = Number(process.argv[4] ?? 4);
const samples = Number(process.argv[5] ?? 8);
const KEY = "bench-streaming-key-0123456789";

const ANSWER = [
  "The video reviews the Surface Go, a small and light tablet [0:01].",
  "The reviewer likes the screen and the keyboard cover, which is good to type on.",
  "",
  "Battery life is modest: about five hours of light use.",
  "",
  "In short, it is good value for a second device.",
].join("\n");

const youtube = startFakeYoutube({ latencyMs: youtubeLatencyMs });
const llm = startFakeLlm();
// A non-streamed answer arrives whole once the model has written it all: first token plus every chunk.
const writingMs = Math.ceil(ANSWER.length / 8) * chunkMs;
llm.respondWith((
  call,
) => (call.stream
  ? { content: ANSWER, delayMs: firstTokenMs, chunkChars: 8, chunkDelayMs: chunkMs }
  : { content: ANSWER, delayMs: firstTokenMs + writingMs })
);
const service = await startService({
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_bench",
  GROQ_BASE_URL: llm.baseUrl,
  GROQ_MODEL: "fake-model",
  ANSWER_CACHE_TTL_MS: "0",
  TRANSCRIPT_CACHE_TTL_MS: "0",
  LLM_TOKENS_PER_MINUTE: "1000000000",
  LLM_REQUESTS_PER_MINUTE: "10000000",
});

interface Timing {
  firstByte: number;
  firstDelta: number;
  total: number;
}

function post(prompt: string, format: string, streamed: boolean): Promise<Response> {
  const headers: Record<string, string> = { "x-api-key": KEY, "content-type": "application/json" };
  if (streamed) headers.accept = "text/event-stream";
  return fetch(`${service.url}/chat`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url: watchUrl("normal"), prompt, output_format: format }),
  });
}

/** Times one streamed request: headers, first byte of the body, first delta, end. */
async function streamed(prompt: string, format: string): Promise<Timing> {
  const started = performance.now();
  const response = await post(prompt, format, true);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let firstByte = 0;
  let firstDelta = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const now = performance.now() - started;
    firstByte ||= now;
    text += decoder.decode(value, { stream: true });
    if (!firstDelta && text.includes("event: delta")) firstDelta = now;
  }
  if (!text.includes("event: done")) throw new Error(`the stream ended without done:\n${text}`);
  return { firstByte, firstDelta, total: performance.now() - started };
}

async function whole(prompt: string, format: string): Promise<number> {
  const started = performance.now();
  const response = await post(prompt, format, false);
  if (response.status !== 200) throw new Error(`non-streamed request answered ${response.status}`);
  await response.text();
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  await whole("warm-up", "text");
  console.log(
    `Streaming latency: fake YouTube ${youtubeLatencyMs} ms per request (2 sequential: transcript ≈ ${
      2 * youtubeLatencyMs
    } ms), fake LLM first token ${firstTokenMs} ms then 8 chars every ${chunkMs} ms (${ANSWER.length} chars ≈ ${writingMs} ms), caches off, ${samples} samples each, medians`,
  );
  console.log("format     first byte  first delta  stream total  non-streamed total");
  for (const format of ["text", "markdown"]) {
    const runs: Timing[] = [];
    const wholes: number[] = [];
    for (let i = 0; i < samples; i++) {
      runs.push(await streamed(`${format} streamed ${i}?`, format));
      wholes.push(await whole(`${format} whole ${i}?`, format));
    }
    const cell = (xs: number[]) => `${median(xs).toFixed(0)} ms`.padStart(11);
    console.log(
      `${format.padEnd(9)}${cell(runs.map((r) => r.firstByte))}  ${cell(runs.map((r) => r.firstDelta))}  ${
        cell(runs.map((r) => r.total))
      }  ${cell(wholes)}`,
    );
  }
} finally {
  await service.stop();
  await youtube.close();
  await llm.close();
}
