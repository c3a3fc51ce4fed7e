/** @module End-to-end tests of instances on a real three-master Redis Cluster: keys, quotas, flights, relay, budgets, routes. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ANSWERS, type FakeLlm, isSearchCall, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { gptOss20bFreePlan } from "../support/fake/provider-limits.ts";
import { startFixedProxy } from "../support/fake/proxy.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { deltaText, eventNames, type ReadEvent, readEvents } from "../support/sse.ts";
import { createKey, runKeys } from "../adapters/keys/keys-cli-process.ts";
import { type OwnCluster, startOwnCluster } from "../support/redis-cluster.ts";

const KEY = "e2e-cluster-key-0123456789abcdef";
let cluster: OwnCluster;
let youtube: FakeYoutube;
let llm: FakeLlm;
let state: Record<string, string>;
let a: RunningService;
let b: RunningService;
const started: { stop(signal?: NodeJS.Signals): unknown }[] = [];

beforeAll(async () => {
  cluster = await startOwnCluster();
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  state = { ...cluster.env, REDIS_KEY_PREFIX: "cluster:" };
  [a, b] = await Promise.all([start(), start()]);
}, 30_000);
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop("SIGKILL");
  llm.reset();
});
afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL")]);
  await youtube?.close();
  await llm?.close();
  await cluster?.dispose();
});

/** An instance on the cluster; `more` settings on top (`started` ones are stopped after their test). */
async function start(more: Record<string, string> = {}, upstream?: { youtube: string; llm: string }) {
  const service = await startService({
    ...state,
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: upstream?.youtube ?? youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: upstream?.llm ?? llm.baseUrl,
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
    SHARED_WORK_LEASE_MS: "400",
    ...more,
  });
  if (Object.keys(more).length > 0 || upstream) started.push(service);
  return service;
}

const ask = (service: RunningService, prompt: string, key = KEY) =>
  postChat(service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": key });

/** Every key under the test's prefix on every master, matching `pattern`. */
async function clusterKeys(pattern: string): Promise<string[]> {
  const found = await Promise.all(cluster.admin.nodes("master").map((node) => node.keys(`cluster:${pattern}`)));
  return found.flat();
}

describe(`instances on a three-master Redis Cluster (${targetFromEnv()})`, () => {
  test("the cluster spreads the service's keys over its three masters", async () => {
    for (let i = 0; i < 12; i++) expect((await ask(i % 2 ? a : b, `spread ${i}`)).status).toBe(200);
    const perNode = await Promise.all(cluster.admin.nodes("master").map((node) => node.keys("cluster:*")));
    expect(perNode.every((keys) => keys.length > 0)).toBe(true);
  });

  test("a key created through the CLI is accepted by both instances; revoked, both refuse it at once", async () => {
    const { key, id } = await createKey(state, "on the cluster");
    expect((await ask(a, "summary", key)).status).toBe(200);
    expect((await ask(b, "summary", key)).status).toBe(200);
    expect((await runKeys(state, ["revoke", id])).code).toBe(0);
    expect((await ask(a, "summary", key)).status).toBe(401);
    expect((await ask(b, "summary", key)).status).toBe(401);
  });

  test("a key with quotas, just verified by both instances, revoked through the CLI: refused at once by both", async () => {
    const { key, id } = await createKey(state, "revoked while remembered", undefined, ["--quota", "100req/day"]);
    for (const service of [a, b]) expect((await ask(service, "summary", key)).status).toBe(200);
    expect((await runKeys(state, ["revoke", id])).code).toBe(0);
    for (const service of [a, b]) expect((await ask(service, "summary", key)).status).toBe(401);
  });

  test("3req/day: 24 concurrent requests over both instances get exactly 3 answers, and the report counts 3", async () => {
    const { key, id } = await createKey(state, "three a day", undefined, ["--quota", "3req/day"]);
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => ask(i % 2 ? b : a, `burst ${i % 4}`, key).then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(21);
    let quotas: unknown;
    for (const until = Date.now() + 8_000; Date.now() < until; await Bun.sleep(200)) {
      const report = await runKeys(state, ["usage", id, "--period", "day", "--json"]);
      expect(report.code).toBe(0);
      quotas = JSON.parse(report.stdout.trim().split("\n").at(-1)!)[0]?.quotas;
      if ((quotas as { used: number }[] | undefined)?.[0]?.used === 3) break;
    }
    expect(quotas).toEqual([expect.objectContaining({ quota: "3req/day", used: 3, remaining: 0 })]);
    // The holds and the ledger of one key share a slot (its id is their hash tag), wherever it lands.
    expect(await clusterKeys(`usage-inflight:{${id}}`)).toHaveLength(1);
    expect(await clusterKeys(`usage:*:{${id}}`)).toHaveLength(2);
  });

  test("the instance doing shared work SIGKILLed mid-generation: the other takes it over, and its callers get 200", async () => {
    const victim = await start({ REQUEST_TIMEOUT_MS: "8000" });
    llm.respondWith((_call, index) => ({ content: ANSWERS.en!, delayMs: index === 0 ? 5_000 : 200 }));
    const first = ask(victim, "taken over?").catch(() => undefined);
    while (llm.calls.length === 0) await Bun.sleep(10);
    const waiting = Array.from({ length: 6 }, () => ask(a, "taken over?"));
    await Bun.sleep(200);
    await victim.stop("SIGKILL");
    const answers = await Promise.all(waiting);
    await first;
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(llm.calls).toHaveLength(2);
  });

  test("a stream on one instance follows the other's work through the cluster: the same deltas, one LLM call", async () => {
    const content = [
      "The reviewer likes the keyboard cover and the screen of this small tablet [0:01].",
      "Battery life is modest: about nine hours of light use, enough for a day [0:01].",
      "The kickstand holds at many angles, which helps on a desk or on the knees [0:01].",
    ].join("\n\n");
    llm.respondWith(() => ({ content, chunkChars: 8, chunkDelayMs: 30 }));
    const stream = (service: RunningService) =>
      fetch(`${service.url}/chat`, {
        method: "POST",
        headers: { "x-api-key": KEY, accept: "text/event-stream", "content-type": "application/json" },
        body: JSON.stringify({ url: watchUrl("normal"), prompt: "relayed?" }),
      });
    const ownerEvents: ReadEvent[] = [];
    const owner = readEvents(await stream(a), {
      stopAfter: (events) => (ownerEvents.splice(0, ownerEvents.length, ...events), false),
    });
    while (!ownerEvents.some((e) => e.event === "delta")) await Bun.sleep(10);
    const [ownerRead, waiter] = await Promise.all([owner, readEvents(await stream(b))]);
    expect(eventNames(waiter).at(-1)).toBe("done");
    expect(eventNames(waiter).filter((name) => name === "delta").length).toBeGreaterThanOrEqual(2);
    expect(deltaText(waiter)).toBe(deltaText(ownerRead));
    expect(llm.calls).toHaveLength(1);
  });

  test(
    "a free-plan key's LLM budget is shared: six concurrent questions over both, all 200, none refused upstream",
    async () => {
      const window = "6000";
      const freeLlm = startFakeLlm({ limits: gptOss20bFreePlan(Number(window)) });
      const ownYoutube = startFakeYoutube();
      started.push({ stop: () => freeLlm.close() }, { stop: () => ownYoutube.close() });
      ownYoutube.setCaption(VIDEOS.normal.id, captionXml(generateCues(1800)));
      const budget = {
        REDIS_KEY_PREFIX: "cluster:budget:",
        TEST_LLM_BUDGET_WINDOW_MS: window,
        REQUEST_TIMEOUT_MS: "12000",
        ANSWER_CACHE_TTL_MS: "0",
        LLM_TOKENS_PER_MINUTE: "",
        LLM_REQUESTS_PER_MINUTE: "",
      };
      const upstream = { youtube: ownYoutube.origin, llm: freeLlm.baseUrl };
      const [x, y] = await Promise.all([start(budget, upstream), start(budget, upstream)]);
      const topics = ["battery", "keyboard", "screen", "camera", "speakers", "price"];
      const responses = await Promise.all(
        topics.map((topic, i) =>
          postChat((i % 2 ? x : y).url, { url: watchUrl("normal"), prompt: `What is said about the ${topic}?` }, {
            "x-api-key": KEY,
          })
        ),
      );
      const bodies = await Promise.all(responses.map((r) => r.text()));
      expect(responses.map((r, i) => (r.status === 200 ? "200" : `${r.status} ${bodies[i]}`))).toEqual(
        Array(6).fill("200"),
      );
      expect(freeLlm.calls.filter((call) => call.refused)).toEqual([]);
      expect(freeLlm.calls.filter(isSearchCall)).toHaveLength(6);
      expect(await clusterKeys("budget:llm-budget:*")).not.toHaveLength(0);
    },
    40_000,
  );

  test("once one instance has opened a route's breaker, the other sends that route nothing", async () => {
    const anyVideo = startFakeYoutube({ anyVideo: true });
    const proxies = await Promise.all(["127.0.0.10", "127.0.0.11"].map((at) => startFixedProxy(at, "user:pass")));
    started.push({ stop: () => anyVideo.close() }, ...proxies.map((p) => ({ stop: p.close })));
    anyVideo.setBlocked((address) => (address === "127.0.0.10" ? "bot-check" : undefined));
    const routes = {
      REDIS_KEY_PREFIX: "cluster:routes:",
      YOUTUBE_PROXIES: proxies.map((p) => p.url).join(","),
      YOUTUBE_ROUTE_FAILURES: "1",
      YOUTUBE_ROUTE_COOLDOWN_MS: "60000",
      YOUTUBE_TIMEOUT_MS: "2000",
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
      TRANSCRIPT_CACHE_TTL_MS: "0",
      ANSWER_CACHE_TTL_MS: "0",
    };
    const upstream = { youtube: anyVideo.origin, llm: llm.baseUrl };
    const [first, second] = await Promise.all([start(routes, upstream), start(routes, upstream)]);
    const video = (n: number, prefix: string) =>
      `https://www.youtube.com/watch?v=${prefix}${String(n).padStart(9, "0")}`;
    const askVideo = (service: RunningService, url: string) =>
      postChat(service.url, { url }, { "x-api-key": KEY }).then((r) => r.status);
    for (let n = 0; n < 2; n++) expect(await askVideo(first, video(n, "ra"))).toBe(200);
    const fromBlocked = () => anyVideo.seen.filter((s) => s.address === "127.0.0.10").length;
    expect(fromBlocked()).toBe(1);
    for (let n = 0; n < 8; n++) expect(await askVideo(second, video(n, "rb"))).toBe(200);
    expect(fromBlocked()).toBe(1);
    expect(await clusterKeys("routes:youtube-route:{*}")).not.toHaveLength(0);
  });
});

describe(`a master of a cluster with replicas killed (${targetFromEnv()})`, () => {
  test(
    "every request is answered while its replica takes over, and a 3req/day key gets exactly 3 afterwards",
    async () => {
      const replicated = await startOwnCluster({ replicas: true });
      try {
        const env = { ...replicated.env, REDIS_KEY_PREFIX: "failover:" };
        const { key } = await createKey(env, "steady", undefined, ["--quota", "100000req/day"]);
        const service = await start(env);
        const statuses: number[] = [];
        const victim = replicated.masters()[0]!;
        for (const began = Date.now(); Date.now() - began < 6_000;) {
          if (statuses.length === 10) replicated.killNode(victim);
          statuses.push((await ask(service, `failover ${statuses.length % 20}`, key)).status);
          await Bun.sleep(20);
        }
        expect(new Set(statuses)).toEqual(new Set([200]));
        while (replicated.masters().length < 3) await Bun.sleep(100);
        const three = await createKey(env, "three after failover", undefined, ["--quota", "3req/day"]);
        const burst = await Promise.all(
          Array.from({ length: 12 }, (_, i) => ask(service, `after ${i % 3}`, three.key).then((r) => r.status)),
        );
        expect(burst.filter((status) => status === 200)).toHaveLength(3);
      } finally {
        await replicated.dispose();
      }
    },
    40_000,
  );
});
