/** @module Egress routes to YouTube on loopback: blocked addresses, fixed and rotating proxies, breakers (issue 21). */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { startFakeLlm } from "../support/fake/llm.ts";
import { type FakeProxy, startFixedProxy, startRotatingProxy, startStickyProxy } from "../support/fake/proxy.ts";
import { type BlockKind, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS } from "../support/fixtures.ts";
import { adminUrlOf, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { ask, KEY } from "../support/service/youtube.ts";

const SECRET = "s3cret-proxy-pass";
const youtube = startFakeYoutube({ anyVideo: true });
const llm = startFakeLlm();
const started: { stop(): unknown }[] = [];

/** The request lines the service has logged so far. */
const requestLines = (running: RunningService) =>
  running
    .output()
    .split("\n")
    .filter((text) => text.startsWith("{"))
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .filter((line) => line.event === "request");

/** A distinct well-formed video id the fake plays as the normal video. */
const videoId = (n: number, prefix = "rt") => `${prefix}${String(n).padStart(11 - prefix.length, "0")}`;

async function service(env: Record<string, string>): Promise<RunningService> {
  const running = await startService({
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake_for_route_tests",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    YOUTUBE_TIMEOUT_MS: "2000",
    TRANSCRIPT_CACHE_TTL_MS: "0",
    ANSWER_CACHE_TTL_MS: "0",
    // Loopback is exactly what NO_PROXY would exempt: no YouTube request may bypass the listed routes.
    NO_PROXY: "127.0.0.1,localhost",
    LOG_FORMAT: "json",
    no_proxy: "127.0.0.1,localhost",
    ...env,
  });
  started.push(running);
  return running;
}

async function proxies(...addresses: string[]): Promise<FakeProxy[]> {
  const made = await Promise.all(addresses.map((a) => startFixedProxy(a, `user:${SECRET}`)));
  started.push(...made.map((p) => ({ stop: p.close })));
  return made;
}

const blocking = (kinds: Record<string, BlockKind>) => (address: string) => kinds[address];

afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
  youtube.reset();
});
afterAll(async () => {
  await youtube.close();
  await llm.close();
});

describe(`YOUTUBE_PROXIES (${targetFromEnv()})`, () => {
  test.each(["bot-check", "429", "recaptcha", "sorry"] as const)(
    "a direct route blocked (%s) beside two healthy proxies: 20 videos all 200, the blocked route asked at most failures + 1 times",
    async (kind) => {
      const [a, b] = await proxies("127.0.0.2", "127.0.0.3");
      youtube.setBlocked(blocking({ "127.0.0.1": kind }));
      youtube.bindCaptions(true);
      const running = await service({
        YOUTUBE_PROXIES: `direct,${a!.url},${b!.url}`,
        YOUTUBE_ROUTE_FAILURES: "3",
        ADMIN_PORT: "0",
      });
      const statuses: number[] = [];
      for (let n = 0; n < 20; n++) statuses.push((await ask(running, videoId(n))).status);
      expect(statuses).toEqual(Array(20).fill(200));
      expect(youtube.seen.filter((s) => s.address === "127.0.0.1").length).toBeLessThanOrEqual(4);
      const used = new Set(youtube.seen.map((s) => s.address));
      expect(used.has("127.0.0.2") && used.has("127.0.0.3")).toBe(true);
      // Visible: the log names each request's route and retries; the metrics each route's state and tries.
      await Bun.sleep(100);
      const lines = requestLines(running).filter((line) => line.path === "/chat");
      expect(lines).toHaveLength(20);
      expect(new Set(lines.map((line) => line.youtube_route))).toEqual(
        new Set([`127.0.0.1:${a!.port}`, `127.0.0.1:${b!.port}`]),
      );
      expect(lines.filter((line) => line.youtube_retries === 1).length).toBeGreaterThanOrEqual(1);
      const admin = await adminUrlOf(running);
      const metrics = await (await fetch(`${admin}/metrics`)).text();
      expect(metrics).toContain('vcs_youtube_route_up{route="direct"} 0');
      expect(metrics).toContain(`vcs_youtube_route_up{route="127.0.0.1:${a!.port}"} 1`);
      expect(metrics).toMatch(/vcs_youtube_route_requests_total\{route="direct",outcome="blocked"\} 3/);
      expect((await fetch(`${admin}/readyz`)).status).toBe(200);
      expect(running.output() + metrics).not.toContain(SECRET);
    },
  );

  test("one video's requests stay on one route: its caption comes from the address of its player call", async () => {
    const [a, b] = await proxies("127.0.0.4", "127.0.0.5");
    youtube.bindCaptions(true);
    const running = await service({ YOUTUBE_PROXIES: `${a!.url},${b!.url}` });
    for (let n = 0; n < 6; n++) expect((await ask(running, videoId(n, "one"))).status).toBe(200);
    for (let n = 0; n < 6; n++) {
      const id = videoId(n, "one");
      const player = youtube.seen.filter((s) => s.endpoint === "player" && s.body?.includes(id)).map((s) => s.address);
      const caption = youtube.seen.filter((s) => s.endpoint === "caption" && s.query.v === id).map((s) => s.address);
      expect(new Set([...player, ...caption]).size).toBe(1);
    }
    expect(new Set(youtube.seen.map((s) => s.address))).toEqual(new Set(["127.0.0.4", "127.0.0.5"]));
  });

  test("the youtube-transcript fallback and the watch page leave by the route too, whatever NO_PROXY says", async () => {
    const [a] = await proxies("127.0.0.12");
    youtube.setPlayerGate({ garbleKeyless: true });
    youtube.setWatch("recaptcha");
    const running = await service({ YOUTUBE_PROXIES: a!.url });
    await ask(running, videoId(1, "fb"));
    expect(youtube.count("watch")).toBeGreaterThanOrEqual(1);
    expect(new Set(youtube.seen.map((s) => s.address))).toEqual(new Set(["127.0.0.12"]));
    youtube.setWatch("page");
    const before = youtube.seen.length;
    youtube.setFault("caption", { kind: "body", body: "<transcript><text" });
    await ask(running, videoId(2, "fb"));
    // An unreadable caption sends the fetch to the youtube-transcript package, which asks for the caption again.
    expect(youtube.seen.slice(before).filter((s) => s.endpoint === "caption").length).toBeGreaterThanOrEqual(2);
    expect(new Set(youtube.seen.map((s) => s.address))).toEqual(new Set(["127.0.0.12"]));
  });

  test("a rotating gateway with 4 of 10 addresses blocked: at least 29 of 30 videos are 200", async () => {
    const addresses = Array.from({ length: 10 }, (_, i) => `127.0.0.${20 + i}`);
    const gateway = await startRotatingProxy(addresses, `user:${SECRET}`);
    started.push({ stop: gateway.close });
    youtube.setBlocked(
      blocking({ "127.0.0.20": "429", "127.0.0.23": "bot-check", "127.0.0.26": "recaptcha", "127.0.0.29": "sorry" }),
    );
    const running = await service({ YOUTUBE_PROXIES: gateway.url, YOUTUBE_BLOCK_RETRIES: "3" });
    let ok = 0;
    for (let n = 0; n < 30; n++) if ((await ask(running, videoId(n, "rot"))).status === 200) ok++;
    expect(ok).toBeGreaterThanOrEqual(29);
    expect(gateway.connections()).toBeGreaterThan(1);
    expect(running.output()).not.toContain(SECRET);
  });

  test("a gateway with sticky sessions ({session} in the URL), 4 of 10 addresses blocked, captions bound to the player's address: at least 29 of 30 videos are 200", async () => {
    const addresses = Array.from({ length: 10 }, (_, i) => `127.0.0.${30 + i}`);
    // Each new session lands on the next address; every connection of a session leaves from its address.
    const gateway = await startStickyProxy((n) => addresses[n % addresses.length]!);
    started.push({ stop: gateway.close });
    youtube.setBlocked(
      blocking({ "127.0.0.30": "429", "127.0.0.33": "bot-check", "127.0.0.36": "recaptcha", "127.0.0.39": "sorry" }),
    );
    youtube.bindCaptions(true);
    const running = await service({ YOUTUBE_PROXIES: gateway.url, YOUTUBE_BLOCK_RETRIES: "3" });
    let ok = 0;
    for (let n = 0; n < 30; n++) if ((await ask(running, videoId(n, "sti"))).status === 200) ok++;
    expect(ok).toBeGreaterThanOrEqual(29);
    // A new session per try: the tries spread over the whole pool.
    expect(new Set(gateway.sources).size).toBe(10);
  });

  test("every route blocked: 503 upstream_blocked with Retry-After at once, and 200 again after the cool-down once a route recovers", async () => {
    const [a, b] = await proxies("127.0.0.6", "127.0.0.7");
    youtube.setBlocked(blocking({ "127.0.0.6": "429", "127.0.0.7": "bot-check" }));
    const running = await service({
      YOUTUBE_PROXIES: `${a!.url},${b!.url}`,
      YOUTUBE_ROUTE_FAILURES: "1",
      YOUTUBE_ROUTE_COOLDOWN_MS: "1500",
    });
    const first = await ask(running, videoId(1, "all"));
    expect(first.status).toBe(503);
    expect(first.code).toBe("upstream_blocked");
    const asked = youtube.seen.length;
    const fast = await ask(running, videoId(2, "all"));
    expect(fast.status).toBe(503);
    expect(fast.code).toBe("upstream_blocked");
    expect(fast.ms).toBeLessThan(1_000);
    expect(Number(fast.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(fast.retryAfter)).toBeLessThanOrEqual(2);
    expect(youtube.seen.length).toBe(asked);
    // The first request's line names the route of its last try; the refused one tried none.
    await Bun.sleep(100);
    const [opened, skipped] = requestLines(running).filter((line) => line.path === "/chat");
    expect([opened?.youtube_retries, typeof opened?.youtube_route]).toEqual([1, "string"]);
    expect(skipped?.youtube_route).toBeUndefined();
    youtube.setBlocked(blocking({ "127.0.0.6": "429" }));
    await Bun.sleep(1_700);
    let status = 0;
    for (let n = 0; n < 3 && status !== 200; n++) status = (await ask(running, videoId(3 + n, "all"))).status;
    expect(status).toBe(200);
    expect(JSON.stringify([first.body, fast.body])).not.toContain(SECRET);
    expect(running.output()).not.toContain(SECRET);
  });

  test("credentials stay out of logs, bodies and start-up errors, even when a proxy is unreachable or refuses", async () => {
    const dead = `http://user:${SECRET}@127.0.0.1:1`;
    const running = await service({ YOUTUBE_PROXIES: dead });
    const outcome = await ask(running, videoId(1, "cred"));
    expect(outcome.status).toBe(502);
    await Bun.sleep(100);
    expect(JSON.stringify(outcome.body) + running.output()).not.toContain(SECRET);
    const refused = await startService({
      YOUTUBE_PROXIES: `direct,socks5://user:${SECRET}@127.0.0.1:1080`,
      HTTPS_PROXY: `nonsense://user:${SECRET}@x`,
    }).catch((error: Error) => error.message);
    expect(String(refused)).toContain("YOUTUBE_PROXIES entry 2 is a SOCKS proxy");
    expect(String(refused)).not.toContain(SECRET);
  });

  test("an unavailable, age-restricted or caption-less video is one request, never retried elsewhere", async () => {
    const [a, b] = await proxies("127.0.0.8", "127.0.0.9");
    const running = await service({ YOUTUBE_PROXIES: `${a!.url},${b!.url}`, YOUTUBE_ROUTE_FAILURES: "1" });
    for (
      const [video, code] of [
        [VIDEOS.unavailable.id, "video_unavailable"],
        [VIDEOS.ageRestricted.id, "video_age_restricted"],
        [VIDEOS.captionsDisabled.id, "transcript_unavailable"],
      ] as const
    ) {
      const before = youtube.seen.length;
      const outcome = await ask(running, video);
      expect(outcome.code).toBe(code);
      expect(youtube.seen.length - before).toBe(1);
    }
    for (let n = 0; n < 4; n++) expect((await ask(running, videoId(n, "ok"))).status).toBe(200);
  });
});

describe(`YOUTUBE_PROXIES with Redis (${targetFromEnv()})`, () => {
  test("once instance A has opened a route's breaker, instance B sends it nothing until the cool-down", async () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl) throw new Error("TEST_REDIS_URL is not set: start a Redis and export it");
    const [a, b] = await proxies("127.0.0.10", "127.0.0.11");
    youtube.setBlocked(blocking({ "127.0.0.10": "bot-check" }));
    const shared = {
      YOUTUBE_PROXIES: `${a!.url},${b!.url}`,
      YOUTUBE_ROUTE_FAILURES: "1",
      YOUTUBE_ROUTE_COOLDOWN_MS: "60000",
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `test:routes:${crypto.randomUUID().slice(0, 8)}:`,
    };
    const [first, second] = await Promise.all([service(shared), service(shared)]);
    for (let n = 0; n < 2; n++) expect((await ask(first, videoId(n, "ra"))).status).toBe(200);
    const fromBlocked = () => youtube.seen.filter((s) => s.address === "127.0.0.10").length;
    expect(fromBlocked()).toBe(1);
    for (let n = 0; n < 8; n++) expect((await ask(second, videoId(n, "rb"))).status).toBe(200);
    expect(fromBlocked()).toBe(1);
  });
});
