/** @module Benchmark of work shared across one to four instances on Redis: upstream calls and latency. */
/**
 * Work in flight shared across instances: `bun bench/shared-work.ts [rounds=5] [requests=200]`.
 *
 * Starts a redis-server of its own, the loopback fake YouTube (50 ms per
 * request) and fake LLM (300 ms per call), and four instances of the service
 * on that Redis. Each round sends `requests` identical cold requests at once
 * (a new prompt, Redis flushed, so nothing is cached), spread round-robin over
 * 1, 2 or 4 instances, the three counts interleaved round by round. It prints
 * the upstream calls each round made (player, caption, LLM; the goal is
 * 1 + 1 + 1 at any count) and the p50/p99 latency of each count against one
 * instance in the same run (goal: p99 within 1.2x). Loopback only.
 */
import { Redis } from "ioredis";
import { ANSWERS, startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { watchUrl } from "../tests/support/fixtures.ts";
import { postChat, type RunningService, startService } from "../tests/support/service/process.ts";
import { startOwnRedis } from "../tests/support/redis-server.ts";

const rounds = Number(process.argv[2] ?? 5);
const requests = Number(process.argv[3] ?? 200);
const COUNTS = [1, 2, 4] as const;
const KEY = "bench-shared-work-key-0123456789";

function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const redis = await startOwnRedis();
const youtube = startFakeYoutube({ latencyMs: 50 });
const llm = startFakeLlm();
llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 300 }));
const admin = new Redis(redis.url);
const env = {
  REDIS_URL: redis.url,
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_fake",
  GROQ_BASE_URL: llm.baseUrl,
  LOG_FORMAT: "json",
};
const instances: RunningService[] = await Promise.all(
  Array.from({ length: Math.max(...COUNTS) }, () => startService(env)),
);

/** One round: `requests` identical cold requests over the first `count` instances. */
async function round(count: number, prompt: string): Promise<{ latencies: number[]; upstream: number[] }> {
  await admin.flushall();
  youtube.reset();
  llm.reset();
  llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 300 }));
  const latencies = await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      const started = performance.now();
      const response = await postChat(instances[i % count]!.url, { url: watchUrl("normal"), prompt }, {
        "x-api-key": KEY,
      });
      await response.text();
      if (response.status !== 200) throw new Error(`POST /chat answered ${response.status}`);
      return performance.now() - started;
    }),
  );
  return { latencies, upstream: [youtube.count("player"), youtube.count("caption"), llm.calls.length] };
}

try {
  await round(1, "warm-up question?");
  const results = new Map<number, { latencies: number[]; upstream: string[] }>(
    COUNTS.map((c) => [c, { latencies: [], upstream: [] }]),
  );
  for (let r = 0; r < rounds; r++) {
    for (const count of COUNTS) {
      const { latencies, upstream } = await round(
        count,
        `Round ${r} on ${count} instances: what is said about the keyboard?`,
      );
      results.get(count)!.latencies.push(...latencies);
      results.get(count)!.upstream.push(upstream.join("+"));
    }
  }
  console.log(
    `Shared work in flight: ${requests} identical cold requests per round spread round-robin, ${rounds} rounds per instance count (interleaved), one Redis, fake YouTube 50 ms per request, fake LLM 300 ms per call`,
  );
  console.log("instances  upstream calls per round (player+caption+LLM)  p50 ms   p99 ms   p50 / p99 vs 1 instance");
  const one = results.get(1)!.latencies;
  for (const [count, { latencies, upstream }] of results) {
    const [p50, p99] = [quantile(latencies, 0.5), quantile(latencies, 0.99)];
    const ratio = `${(p50 / quantile(one, 0.5)).toFixed(2)} / ${(p99 / quantile(one, 0.99)).toFixed(2)}`;
    console.log(
      `${String(count).padEnd(11)}${upstream.join(", ").padEnd(47)}${p50.toFixed(1).padStart(7)}  ${
        p99.toFixed(1).padStart(7)
      }   ${ratio}`,
    );
  }
} finally {
  admin.disconnect();
  await Promise.all(instances.map((s) => s.stop("SIGKILL")));
  await youtube.close();
  await llm.close();
  await redis.dispose();
}
