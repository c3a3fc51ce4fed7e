/** @module Load test of streamed answers: hundreds of concurrent streams checked end to end, with memory. */
/**
 * Load test of streamed answers: `bun bench/streaming-load.ts [streams] [slowReaders]`.
 *
 * Starts the loopback fake YouTube, a slow fake LLM (each answer streamed in
 * 8-character chunks, 40 ms apart: about 4 s per answer) and the real service
 * (`E2E_TARGET`, Bun by default), then opens `streams` (500) streamed
 * requests at once, each a different question so that none shares another's
 * work, and reads every stream to its end. It checks each one: `progress`
 * first, `done` last and once, the deltas' numbered lines in order and their
 * concatenation equal to `done.output`. Meanwhile it samples the service's
 * resident memory (its process and children, /proc). Then `slowReaders`
 * (50) streams whose clients read nothing until their answer is complete,
 * and again the memory. Loopback only; about 30 s.
 */
import { readdirSync, readFileSync } from "node:fs";
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { watchUrl } from "../tests/support/fixtures.ts";
import { startService } from "../tests/support/service/process.ts";
import { type ReadEvent, readEvents } from "../tests/support/sse.ts";

const streams = Number(process.argv[2] ?? 500);
const slowReaders = Number(process.argv[3] ?? 50);
const KEY = "bench-streaming-load-key-0123";
const LINES = 6;

/** A numbered answer: line i says "Line i", so a reordered or lost delta shows. */
const answer = (n: number) =>
  Array.from(
    { length: LINES },
    (_, i) => `Line ${i + 1} of answer ${n}: the reviewer likes the screen and the keyboard.`,
  ).join("\n");

const youtube = startFakeYoutube();
const llm = startFakeLlm();
llm.respondWith((call) => ({
  content: answer(Number(/question (\d+)/.exec(call.text)?.[1] ?? 0)),
  chunkChars: 8,
  chunkDelayMs: 40,
}));
const service = await startService({
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_bench",
  GROQ_BASE_URL: llm.baseUrl,
  GROQ_MODEL: "fake-model",
  MAX_IN_FLIGHT: String(streams + slowReaders + 10),
  MAX_IN_FLIGHT_PER_KEY: String(streams + slowReaders + 10),
  LLM_TOKENS_PER_MINUTE: "1000000000",
  LLM_REQUESTS_PER_MINUTE: "10000000",
  ANSWER_CACHE_TTL_MS: "0",
  LOG_FORMAT: "json",
});

/** Resident memory of the process and its descendants, in MiB. */
function rssMiB(pid: number): number {
  const pids = [pid, ...descendants(pid)];
  let kib = 0;
  for (const p of pids) {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kib / 1024;
}

function descendants(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      return listed ? listed.split(/\s+/).map(Number).flatMap((child) => [child, ...descendants(child)]) : [];
    });
  } catch {
    return [];
  }
}

/** Checks one stream: progress first, done last and once, lines in order, deltas equal to done.output. */
function problems(events: ReadEvent[], n: number): string[] {
  const names = events.filter((e) => e.event !== "comment").map((e) => e.event);
  const found: string[] = [];
  if (names[0] !== "progress") found.push("first event is not progress");
  if (names.at(-1) !== "done" || names.filter((name) => name === "done").length !== 1) {
    found.push(`ends with ${names.at(-1)}`);
  }
  const text = events.filter((e) => e.event === "delta").map((e) => e.data.text).join("");
  const done = events.at(-1)?.data;
  if (done?.output !== text) found.push("deltas differ from done.output");
  if (text !== answer(n)) found.push("answer lost or reordered");
  const numbers = [...text.matchAll(/Line (\d+)/g)].map((m) => Number(m[1]));
  if (numbers.some((value, i) => value !== i + 1)) found.push("lines out of order");
  return found;
}

function request(n: number): Promise<Response> {
  return fetch(`${service.url}/chat`, {
    method: "POST",
    headers: { "x-api-key": KEY, accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify({ url: watchUrl("normal"), prompt: `question ${n}?`, output_format: "markdown" }),
  });
}

async function sampled<T>(work: Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(service.process.pid))), 100);
  try {
    return { value: await work, peak };
  } finally {
    clearInterval(timer);
  }
}

try {
  await (await request(0)).text(); // warm-up: the transcript is cached from here on
  const idle = rssMiB(service.process.pid);
  const started = performance.now();
  const all = sampled(
    Promise.all(
      Array.from(
        { length: streams },
        (_, i) => request(i + 1).then((r) => readEvents(r)).then((events) => ({ events, n: i + 1 })),
      ),
    ),
  );
  const { value: results, peak } = await all;
  const seconds = (performance.now() - started) / 1000;
  const bad = results.flatMap(({ events, n }) => problems(events, n).map((p) => `#${n}: ${p}`));
  const eventCount = results.reduce((sum, r) => sum + r.events.length, 0);
  console.log(
    `${streams} concurrent streams on a slow fake model (8 chars per chunk, 40 ms apart, ${LINES} lines per answer): ${
      seconds.toFixed(1)
    } s, ${eventCount} events read`,
  );
  console.log(
    `  lost, duplicated or reordered: ${
      bad.length === 0 ? "none" : bad.slice(0, 5).join("; ")
    } (${bad.length} problems)`,
  );
  console.log(
    `  service RSS: ${idle.toFixed(0)} MiB idle, peak ${peak.toFixed(0)} MiB with ${streams} streams, ${
      rssMiB(service.process.pid).toFixed(0)
    } MiB after`,
  );

  // Clients that read nothing until their answer is complete: the service holds at most each answer's events.
  const base = rssMiB(service.process.pid);
  const responses = await Promise.all(Array.from({ length: slowReaders }, (_, i) => request(100_000 + i)));
  const slow = await sampled(
    (async () => {
      while (llm.calls.filter((call) => call.text.includes("question 1000")).length < slowReaders) await Bun.sleep(50);
      await Bun.sleep(LINES * 10 * 40 + 2_000); // every answer written while nobody reads
      return await Promise.all(responses.map((r, i) => readEvents(r).then((events) => problems(events, 100_000 + i))));
    })(),
  );
  const slowBad = slow.value.flat();
  console.log(
    `${slowReaders} streams whose clients read nothing until the answer was written: ${
      slowBad.length === 0 ? "all complete and in order" : slowBad.slice(0, 3).join("; ")
    }; RSS ${base.toFixed(0)} MiB before, peak ${slow.peak.toFixed(0)} MiB`,
  );
} finally {
  await service.stop();
  await youtube.close();
  await llm.close();
}
