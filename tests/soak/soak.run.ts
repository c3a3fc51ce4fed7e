/** @module Soak run: a steady stream of mixed requests against the service, sampling its memory. */
/**
 * Soak: a steady, bounded stream of mixed valid, invalid and faulty requests
 * against the service (the compiled binary when E2E_BINARY is set), sampling
 * its RSS. Fails on any 500, any unexpected status, a request that hangs, or
 * memory that keeps growing. Run: `bun tests/soak/soak.run.ts` (SOAK_SECONDS,
 * SOAK_RATE to change the length and requests per second).
 */
import { startFakeLlm } from "../support/fake/llm.ts";
import { startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS } from "../support/fixtures.ts";
import { postChat, startService } from "../support/service/process.ts";
import { median, rssMiB } from "../support/rss.ts";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const RATE = Number(process.env.SOAK_RATE ?? 80);
const KEY = "soak-key-0123456789";
const REQUEST_TIMEOUT_MS = 15_000;

const youtube = startFakeYoutube();
const llm = startFakeLlm();
llm.respondWith((
  call,
) => (call.text.includes("please fail")
  ? { status: 500 }
  : { content: "The video reviews a small tablet and likes its screen [0:01]." })
);
const target = process.env.E2E_BINARY ? "binary" : "bun";
const service = await startService(
  // YOUTUBE_ROUTE_FAILURES: the bot-check video is one request in the mix, not a blocked address; the breaker would close the only route.
  {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_soak",
    GROQ_BASE_URL: llm.baseUrl,
    LLM_MAX_RETRIES: "0",
    // The subject here is not the provider's limits: a budget that never paces (the fake LLM states none).
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
    ANSWER_CACHE_MAX_ENTRIES: "300",
    TRANSCRIPT_CACHE_MAX_ENTRIES: "50",
    YOUTUBE_ROUTE_FAILURES: "1000",
  },
  { target },
);

/** One kind of request and the statuses it may get. */
interface Kind {
  weight: number;
  send: (n: number) => Promise<Response>;
  expect: number[];
}
const auth = { "x-api-key": KEY };
const KINDS: Kind[] = [
  {
    weight: 40,
    send: (n) =>
      postChat(service.url, {
        url: `https://youtu.be/${VIDEOS.normal.id}`,
        prompt: `question number ${n} about the screen?`,
      }, auth),
    expect: [200],
  },
  {
    weight: 19,
    send: () => postChat(service.url, { url: `https://youtu.be/${VIDEOS.normal.id}` }, auth),
    expect: [200],
  },
  { weight: 10, send: (n) => postChat(service.url, `{"url": "https://youtu.be/x${n}`, auth), expect: [400] },
  {
    weight: 5,
    send: () => postChat(service.url, { url: "https://youtube.com.evil.example/watch?v=GJLlxj_dtq8" }, auth),
    expect: [400],
  },
  {
    weight: 5,
    send: () => postChat(service.url, { url: `https://youtu.be/${VIDEOS.normal.id}` }, { "x-api-key": "wrong" }),
    expect: [401],
  },
  {
    weight: 5,
    send: (n) =>
      postChat(
        service.url,
        { url: `https://youtu.be/${VIDEOS.normal.id}`, prompt: "p".repeat(20_000 + n % 100) },
        auth,
      ),
    expect: [413],
  },
  {
    weight: 5,
    send: () => postChat(service.url, { url: `https://youtu.be/${VIDEOS.unavailable.id}`, prompt: "x" }, auth),
    expect: [422],
  },
  {
    // Blocks in a row open the only route after YOUTUBE_ROUTE_FAILURES (1,000 at most) and nothing here resets it (the
    // other videos' transcripts are cached): at 1 in 100, the 7-minute run at 120/s sends about 500.
    weight: 1,
    send: () => postChat(service.url, { url: `https://youtu.be/${VIDEOS.botCheck.id}` }, auth),
    expect: [503],
  },
  {
    weight: 10,
    send: (n) =>
      postChat(service.url, { url: `https://youtu.be/${VIDEOS.normal.id}`, prompt: `please fail ${n}` }, auth),
    expect: [502],
  },
];
const totalWeight = KINDS.reduce((sum, k) => sum + k.weight, 0);
const pick = (n: number): Kind => {
  let point = (n * 7919) % totalWeight;
  for (const kind of KINDS) if ((point -= kind.weight) < 0) return kind;
  return KINDS[0]!;
};

const problems: string[] = [];
const samples: { at: number; rss: number }[] = [];
const statuses = new Map<number, number>();
let sent = 0;
let done = 0;
const started = performance.now();

async function one(n: number): Promise<void> {
  const kind = pick(n);
  try {
    const response = await Promise.race([kind.send(n), Bun.sleep(REQUEST_TIMEOUT_MS).then(() => "hung" as const)]);
    if (response === "hung") return void problems.push(`request ${n} hung`);
    await response.arrayBuffer();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (!kind.expect.includes(response.status)) {
      problems.push(`request ${n}: status ${response.status}, expected ${kind.expect.join("/")}`);
    }
  } catch (error) {
    problems.push(`request ${n}: ${String(error)}`);
  } finally {
    done++;
  }
}

const sampler = setInterval(
  () => samples.push({ at: (performance.now() - started) / 1000, rss: rssMiB(service.process.pid) }),
  1000,
);
const pending: Promise<void>[] = [];
while (performance.now() - started < SECONDS * 1000) {
  const due = Math.floor(((performance.now() - started) / 1000) * RATE);
  while (sent < due) pending.push(one(sent++));
  await Bun.sleep(10);
}
await Promise.all(pending);
clearInterval(sampler);
await service.stop();
await youtube.close();
await llm.close();

const quarter = Math.max(1, Math.floor(samples.length / 4));
const early = median(samples.slice(quarter, 2 * quarter).map((s) => s.rss));
const late = median(samples.slice(-quarter).map((s) => s.rss));
const growthLimit = early * 1.25 + 10;
if (late > growthLimit) {
  problems.push(
    `RSS kept growing: ${early.toFixed(1)} MiB early, ${late.toFixed(1)} MiB late (limit ${growthLimit.toFixed(1)})`,
  );
}
if ((statuses.get(500) ?? 0) > 0) problems.push(`${statuses.get(500)} responses were 500`);

console.log(
  `soak (${target}): ${done} requests in ${SECONDS} s at ${RATE}/s; statuses ${
    JSON.stringify(Object.fromEntries(statuses))
  }`,
);
console.log(
  `soak RSS MiB: start ${samples[0]?.rss.toFixed(1)}, early median ${early.toFixed(1)}, end ${
    samples.at(-1)?.rss.toFixed(1)
  }, late median ${late.toFixed(1)}, peak ${Math.max(...samples.map((s) => s.rss)).toFixed(1)}`,
);
for (const problem of problems.slice(0, 20)) console.log(`  problem: ${problem}`);
console.log(problems.length === 0 ? " 1 pass\n 0 fail" : ` 0 pass\n 1 fail`);
process.exit(problems.length === 0 ? 0 : 1);
