/** @module Benchmark of rotation on block through a rotating gateway with 40 % of its addresses blocked. */
/**
 * Rotation on block: a rotating gateway whose addresses are 40 % blocked
 * (4 of 10 answer the bot check; each new connection picks one at random,
 * seeded, so both runs meet the same sequence of addresses), 100 distinct
 * videos asked one after another. Baseline: the same gateway with
 * YOUTUBE_BLOCK_RETRIES=0 (today's one try), measured in the same run.
 * A third run gives the gateway sticky sessions (`{session}` in the user
 * name: one address per try, whatever the connection). Prints the share of 200s, YouTube requests per video and the median and
 * p90 latency of each.
 *
 *   bun bench/youtube-routes.ts [--videos 100]
 *
 * Loopback only: the fake YouTube, the fake LLM and the fake gateway; bounded by the video count.
 */
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeProxy, startStickyProxy } from "../tests/support/fake/proxy.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { startService } from "../tests/support/service/process.ts";
import { ask, KEY } from "../tests/support/service/youtube.ts";

const videos = Number(process.argv[process.argv.indexOf("--videos") + 1] ?? 0) || 100;
const addresses = Array.from({ length: 10 }, (_, i) => `127.0.0.${40 + i}`);
const blocked = new Set(addresses.slice(0, 4));

/** A small seeded generator (mulberry32), so both runs meet the same sequence of addresses. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function run(label: string, retries: number, sticky = false) {
  const youtube = startFakeYoutube({ anyVideo: true });
  youtube.setBlocked((address) => (blocked.has(address) ? "bot-check" : undefined));
  const llm = startFakeLlm();
  const random = seeded(21);
  const pick = () => addresses[Math.floor(random() * addresses.length)]!;
  const gateway = sticky ? await startStickyProxy(pick) : await startFakeProxy(pick);
  const service = await startService({
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_bench",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    TRANSCRIPT_CACHE_TTL_MS: "0",
    ANSWER_CACHE_TTL_MS: "0",
    YOUTUBE_PROXIES: gateway.url,
    YOUTUBE_BLOCK_RETRIES: String(retries),
    // The breaker stays out of it: this measures rotation alone (with the default 3, one try opens the only route within seconds).
    YOUTUBE_ROUTE_FAILURES: "1000",
  });
  const times: number[] = [];
  let ok = 0;
  for (let n = 0; n < videos; n++) {
    const outcome = await ask(service, `bn${String(n).padStart(9, "0")}`);
    times.push(outcome.ms);
    if (outcome.status === 200) ok++;
  }
  const requests = youtube.count("player") + youtube.count("caption");
  await service.stop();
  await gateway.close();
  await youtube.close();
  await llm.close();
  times.sort((a, b) => a - b);
  return {
    label,
    ok: ok / videos,
    requests: requests / videos,
    median: times[Math.floor(times.length / 2)]!,
    p90: times[Math.floor(times.length * 0.9)]!,
  };
}

const baseline = await run("one try (YOUTUBE_BLOCK_RETRIES=0)", 0);
const rotated = await run("rotation on block (YOUTUBE_BLOCK_RETRIES=3)", 3);
const sticky = await run("rotation on block, sticky sessions ({session} in the user name)", 3, true);
for (const r of [baseline, rotated, sticky]) {
  console.log(
    `${r.label}: ${(r.ok * 100).toFixed(1)} % 200, ${r.requests.toFixed(2)} YouTube requests per video, median ${
      r.median.toFixed(1)
    } ms, p90 ${r.p90.toFixed(1)} ms`,
  );
}
for (const r of [rotated, sticky]) {
  console.log(
    `ratio (${r.label} / one try): 200s ${(r.ok / baseline.ok).toFixed(2)}, requests ${
      (r.requests / baseline.requests).toFixed(2)
    }, median latency ${(r.median / baseline.median).toFixed(2)}`,
  );
}
