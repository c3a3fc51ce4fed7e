/** @module End-to-end tests of keys in a file: the CLI, the running server, generated keys, per-key and default limits. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import {
  postChat,
  type RunningService,
  type ServiceEnv,
  startService,
  targetFromEnv,
} from "../support/service/process.ts";
import { createKey, runKeys } from "../adapters/keys/keys-cli-process.ts";

const ENV_KEY = "e2e-env-key-0123456789";
let youtube: FakeYoutube;
let llm: FakeLlm;
let dir: string;
let service: RunningService | undefined;

beforeAll(() => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  dir = mkdtempSync(join(tmpdir(), "vcs-keys-e2e-"));
});
afterEach(async () => {
  await service?.stop("SIGKILL");
  service = undefined;
});
afterAll(async () => {
  await youtube?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function storeEnv(): Record<string, string> {
  return { KEYS_FILE: join(dir, `keys-${++files}.json`) };
}
function start(env: ServiceEnv): Promise<RunningService> {
  return startService({
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    ...env,
  });
}
const ask = (service: RunningService, key: string, prompt = "summary") =>
  postChat(service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": key });

describe(`keys CLI with the file store (${targetFromEnv()})`, () => {
  test("create, use, list without revealing, revoke: the running server refuses the key at once", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "mobile app");
    expect(key).toMatch(/^vcs_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(env.KEYS_FILE!, "utf8")).not.toContain(key);
    service = await start(env);
    expect(service.output()).not.toContain("generated one key");
    expect((await ask(service, key)).status).toBe(200);

    const list = await runKeys(env, ["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain("mobile app");
    expect(list.stdout + list.stderr).not.toContain(key);

    const revoke = await runKeys(env, ["revoke", id]);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain(`Revoked key ${id}`);
    const refused = await ask(service, key);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe("unauthorized");
    expect(service.output()).not.toContain(key);
  });

  test("the human-readable create shows the key once, and the entry point's keys subcommand reaches the same store", async () => {
    const env = storeEnv();
    const created = await runKeys(env, ["create", "--name", "ops", "--rate-limit", "10/min"]);
    expect(created.code).toBe(0);
    const key = /vcs_[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0];
    expect(key).toBeDefined();
    expect(created.stdout.split(key!).length).toBe(2);
    const listed = await runKeys(env, ["list", "--json"], { entry: true });
    expect(listed.code).toBe(0);
    const records = JSON.parse(listed.stdout.trim().split("\n").at(-1)!);
    expect(records).toEqual([{
      id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      name: "ops",
      createdAt: expect.any(String),
      rateLimit: "10/min",
    }]);
    expect(listed.stdout).not.toContain(key!);
  });

  test("bad usage is refused with a message that says what to do", async () => {
    const env = storeEnv();
    const noName = await runKeys(env, ["create"]);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain("--name");
    const badLimit = await runKeys(env, ["create", "--name", "x", "--rate-limit", "lots"]);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain("60/min");
    const unknown = await runKeys(env, ["revoke", "key_000000000000"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No key with id");
  });

  test("API_KEYS keeps working alongside issued keys", async () => {
    const env = storeEnv();
    const { key } = await createKey(env, "issued");
    service = await start({ ...env, API_KEYS: ENV_KEY });
    expect((await ask(service, ENV_KEY)).status).toBe(200);
    expect((await ask(service, key)).status).toBe(200);
    expect((await ask(service, "vcs_unknown")).status).toBe(401);
  });

  test("with no API_KEYS and no issued key, one key is generated at start-up; with an issued key, none is", async () => {
    const env = storeEnv();
    service = await start(env);
    const generated = /generated one key[^\n]*\n\s*(\S+)/.exec(service.output())?.[1];
    expect(generated).toBeDefined();
    expect((await ask(service, generated!)).status).toBe(200);
    await service.stop("SIGKILL");
    const { key } = await createKey(env, "first");
    service = await start(env);
    expect(service.output()).not.toContain("generated one key");
    expect((await ask(service, generated!)).status).toBe(401);
    expect((await ask(service, key)).status).toBe(200);
  });
});

describe(`per-key rate limits (${targetFromEnv()})`, () => {
  test("a key's own limit admits that many, then 429 with Retry-After and RateLimit headers; other keys are unaffected", async () => {
    const env = storeEnv();
    const { key } = await createKey(env, "limited", "3/min");
    service = await start({ ...env, API_KEYS: ENV_KEY, RATE_LIMIT: "100/min" });
    const admitted = [];
    for (let i = 0; i < 3; i++) admitted.push(await ask(service, key, `question ${i}`));
    expect(admitted.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(admitted.map((r) => r.headers.get("ratelimit-limit"))).toEqual(["3", "3", "3"]);
    expect(admitted.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    expect(Number(admitted[2]!.headers.get("ratelimit-reset"))).toBeGreaterThan(55);

    const refused = await ask(service, key, "one more");
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(15);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(refused.headers.get("ratelimit-limit")).toBe("3");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe(String(retryAfter));

    const other = await ask(service, ENV_KEY);
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-limit")).toBe("100");
    expect(other.headers.get("ratelimit-remaining")).toBe("99");
  });

  test("requests refused for other reasons cost nothing yet carry the headers; 401 carries none", async () => {
    service = await start({ ...storeEnv(), API_KEYS: ENV_KEY, RATE_LIMIT: "2/min" });
    for (let i = 0; i < 5; i++) {
      const invalid = await postChat(service.url, { url: "https://example.com/not-youtube" }, { "x-api-key": ENV_KEY });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get("ratelimit-limit")).toBe("2");
      expect(invalid.headers.get("ratelimit-remaining")).toBe("2");
    }
    const wrongType = await postChat(service.url, "url=x", { "x-api-key": ENV_KEY, "content-type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect(wrongType.headers.get("ratelimit-remaining")).toBe("2");
    const unauthorized = await postChat(service.url, { url: watchUrl("normal") }, { "x-api-key": "nope" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("ratelimit-limit")).toBeNull();
    expect((await ask(service, ENV_KEY)).headers.get("ratelimit-remaining")).toBe("1");
    expect((await ask(service, ENV_KEY)).status).toBe(200);
    expect((await ask(service, ENV_KEY)).status).toBe(429);
  });
});

describe(`the default rate limit (${targetFromEnv()})`, () => {
  /** Asks as `key` until the first 429 (at most `most` times) and returns every answer. */
  async function askUntilRefused(service: RunningService, key: string, most: number): Promise<Response[]> {
    const answers: Response[] = [];
    while (answers.length < most && answers.at(-1)?.status !== 429) answers.push(await ask(service, key));
    return answers;
  }

  test("with no RATE_LIMIT at all a key is limited to 60/min; a key issued with its own limit keeps it", async () => {
    const env = storeEnv();
    const { key: own } = await createKey(env, "its own", "200/min");
    // Not RATE_LIMIT=none, as startService gives every other test: no RATE_LIMIT in the environment at all.
    service = await start({ ...env, API_KEYS: ENV_KEY, RATE_LIMIT: undefined });
    const started = Date.now();
    const answers = await askUntilRefused(service, ENV_KEY, 100);
    const seconds = (Date.now() - started) / 1000;
    const admitted = answers.filter((r) => r.status === 200);
    const refused = answers.at(-1)!;
    expect(answers[0]!.headers.get("ratelimit-limit")).toBe("60");
    expect(answers[0]!.headers.get("ratelimit-remaining")).toBe("59");
    // A burst of 60, then the bucket regains one a second: a few more while these were being sent.
    expect(admitted.length).toBe(answers.length - 1);
    expect(admitted.length).toBeGreaterThanOrEqual(60);
    expect(admitted.length).toBeLessThanOrEqual(60 + Math.ceil(seconds) + 1);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(2);
    expect(refused.headers.get("ratelimit-limit")).toBe("60");

    const other = await ask(service, own);
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-limit")).toBe("200");
    expect(other.headers.get("ratelimit-remaining")).toBe("199");
  });

  test("RATE_LIMIT=none turns the default off: no limit, no RateLimit headers; a key's own limit still holds", async () => {
    const env = storeEnv();
    const { key: own } = await createKey(env, "limited", "3/min");
    service = await start({ ...env, API_KEYS: ENV_KEY, RATE_LIMIT: "none" });
    const answers = await askUntilRefused(service, ENV_KEY, 80);
    expect(answers.map((r) => r.status)).toEqual(Array(80).fill(200));
    expect(answers.filter((r) => r.headers.has("ratelimit-limit"))).toEqual([]);

    const limited = await askUntilRefused(service, own, 10);
    expect(limited.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(limited.map((r) => r.headers.get("ratelimit-limit"))).toEqual(["3", "3", "3", "3"]);
  });
});
