/** @module Benchmark of a long summary and a stream of short questions on the free plan, before and after. */
/**
 * Benchmark (issue 22): one long summary and a stream of short questions on a
 * free Groq key, end to end through the real service: how fair admission
 * shares the provider's window between them. The fake LLM enforces the free
 * plan of openai/gpt-oss-20b, the service's default model (8,000 tokens and
 * 30 requests a minute), and answers in 300 ms plus 0.6 ms per `max_tokens`.
 * At t=0 a 3-hour summary; from t=2 s a short question about a 5-minute video
 * every 15 s, until the run's end. Each tree gets a fresh service, fake LLM
 * and fake YouTube.
 *
 * Prints per tree: the short questions' p50/p95 latency, how many were
 * refused (any non-200), the summary's status, wall time and coverage, and
 * the provider's refusals (429/413); then after/before ratios.
 *
 * Run: bun bench/mixed-free-tier.ts [--seconds=180] [--every=15] [--scale=1] [--before=/path/to/main]
 *   --seconds: the run's real length; --scale: plays windows, deadlines and
 *   the question interval that many times faster (checks the script in
 *   seconds); --before: a checkout of the code to compare with (its own
 *   node_modules), run first. Loopback only.
 */
import { type Responder, startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../tests/support/fixtures.ts";
import { captionXml, generateCues } from "../tests/support/long-transcript.ts";
import { gptOss20bFreePlan } from "../tests/support/fake/provider-limits.ts";
import { requestLogLines } from "../tests/support/request-log-lines.ts";
import { startTree, THIS_TREE } from "./support/trees.ts";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const SECONDS = Number(args.get("seconds") ?? 180);
const SCALE = Number(args.get("scale") ?? 1);
const BEFORE = args.get("before");
const EVERY_S = Number(args.get("every") ?? 15);
const WINDOW_MS = 60_000 / SCALE;
const KEY = "bench-key-0123456789";
const TOPICS = ["battery", "keyboard", "screen", "camera", "price", "speakers", "weight", "charger", "stylus"];

interface Result {
  tree: string;
  shortMs: number[];
  shortRefused: number;
  summary: { status: number; ms: number; coverage: unknown; plan: unknown };
  provider429: number;
  provider413: number;
}

const respond: Responder = (call) => {
  const notes = /Part \d+ of \d+/.test(call.text);
  const content = notes
    ? "- [0:00] The reviewer covers one more aspect of the device."
    : "The reviewer says the tablet is good value [0:00].";
  return { content, delayMs: Math.round((300 + 2 * (call.maxTokens ?? 100) * 0.3) / SCALE) };
};

async function run(tree: string, dir: string): Promise<Result> {
  const youtube = startFakeYoutube();
  const llm = startFakeLlm({ limits: gptOss20bFreePlan(WINDOW_MS) });
  llm.respondWith(respond);
  youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3 * 3600)));
  youtube.setCaption(VIDEOS.twoTracks.id, captionXml(generateCues(5 * 60)));
  const service = await startTree(dir, {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_bench",
    GROQ_BASE_URL: llm.baseUrl,
    TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS),
    REQUEST_TIMEOUT_MS: String(120_000 / SCALE),
    ANSWER_CACHE_TTL_MS: "0",
  });
  const chat = (body: unknown) =>
    fetch(`${service.url}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify(body),
    });
  try {
    const began = performance.now();
    const summary = chat({ url: watchUrl("normal") }).then(async (response) => ({
      response,
      ms: performance.now() - began,
    }));
    const shorts: Promise<{ status: number; ms: number }>[] = [];
    await Bun.sleep(2_000 / SCALE);
    for (let i = 0; performance.now() - began < (SECONDS * 1000) / SCALE; i++) {
      const asked = performance.now();
      shorts.push(
        chat({
          url: watchUrl("twoTracks"),
          language: "en",
          prompt: `Question ${i}: what does the reviewer say about the ${TOPICS[i % TOPICS.length]}?`,
        }).then(async (r) => (await r.arrayBuffer(), { status: r.status, ms: performance.now() - asked })),
      );
      await Bun.sleep((EVERY_S * 1000) / SCALE);
    }
    const [done, answered] = await Promise.all([summary, Promise.all(shorts)]);
    const line = (await requestLogLines(service, done.response))[0] ?? {};
    const ok = answered.filter((a) => a.status === 200).map((a) => a.ms);
    return {
      tree,
      shortMs: ok.sort((a, b) => a - b),
      shortRefused: answered.length - ok.length,
      summary: { status: done.response.status, ms: done.ms, coverage: line.coverage, plan: line.plan },
      provider429: llm.calls.filter((c) => c.refused === 429).length,
      provider413: llm.calls.filter((c) => c.refused === 413).length,
    };
  } finally {
    await service.stop();
    await llm.close();
    await youtube.close();
  }
}

const quantile = (
  sorted: number[],
  q: number,
) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
const seconds = (ms: number) => (Number.isNaN(ms) ? "–" : `${(ms / 1000).toFixed(1)} s`);

const trees: [string, string][] = [...(BEFORE ? ([["before", BEFORE]] as [string, string][]) : []), [
  "after",
  THIS_TREE,
]];
console.log(
  `mixed workload: ${SECONDS} s at scale ${SCALE} (window ${WINDOW_MS} ms); one 3-hour summary, a 5-minute question every ${
    EVERY_S / SCALE
  } s from ${2 / SCALE} s`,
);
const results: Result[] = [];
for (const [tree, dir] of trees) {
  const r = await run(tree, dir);
  results.push(r);
  console.log(
    `${tree.padEnd(6)}  short: ${r.shortMs.length} served, p50 ${seconds(quantile(r.shortMs, 0.5))}, p95 ${
      seconds(quantile(r.shortMs, 0.95))
    }, refused ${r.shortRefused}` +
      ` | summary: ${r.summary.status} in ${seconds(r.summary.ms)}, plan ${String(r.summary.plan)}, coverage ${
        String(r.summary.coverage)
      } | provider refused: ${r.provider429} × 429, ${r.provider413} × 413`,
  );
}
if (results.length === 2) {
  const [before, after] = results as [Result, Result];
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "–");
  console.log(
    `after/before  short p50 ${ratio(quantile(after.shortMs, 0.5), quantile(before.shortMs, 0.5))}, p95 ${
      ratio(quantile(after.shortMs, 0.95), quantile(before.shortMs, 0.95))
    }, refused ${before.shortRefused} → ${after.shortRefused}, summary wall ${
      ratio(after.summary.ms, before.summary.ms)
    }`,
  );
}
