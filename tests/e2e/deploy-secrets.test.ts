/** @module End-to-end tests of the settings the manifests rely on: Redis's password apart, short keys warned about. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { spawn, type Subprocess } from "bun";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { adminUrlOf, postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { createKey } from "../adapters/keys/keys-cli-process.ts";

const PASSWORD = `pw-${crypto.randomUUID()}`;
let redis: Subprocess;
let redisUrl: string;
let youtube: FakeYoutube;
let service: RunningService | undefined;

/** A redis-server that asks for a password, on a free loopback port. */
async function startRedisWithPassword(): Promise<{ child: Subprocess; url: string }> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const child = spawn(
    ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"].concat([
      "--requirepass",
      PASSWORD,
    ]),
    { stdout: "ignore", stderr: "ignore" },
  );
  for (let i = 0; i < 100; i++) {
    const ping = Bun.spawnSync(["redis-cli", "-p", String(port), "-a", PASSWORD, "--no-auth-warning", "ping"]);
    if (ping.stdout.toString().trim() === "PONG") return { child, url: `redis://127.0.0.1:${port}` };
    await Bun.sleep(50);
  }
  throw new Error("redis-server did not start");
}

beforeAll(async () => {
  ({ child: redis, url: redisUrl } = await startRedisWithPassword());
  youtube = startFakeYoutube();
});
afterEach(async () => {
  await service?.stop("SIGKILL");
  service = undefined;
});
afterAll(async () => {
  redis?.kill("SIGKILL");
  await youtube?.close();
});

describe(`the manifests' settings (${targetFromEnv()})`, () => {
  test("REDIS_PASSWORD apart from REDIS_URL (as the Secret gives it): keys issued and checked, ready", async () => {
    const env = { REDIS_URL: redisUrl, REDIS_PASSWORD: PASSWORD, REDIS_KEY_PREFIX: "secrets:" };
    const { key } = await createKey(env, "from the secret");
    service = await startService({ ...env, ADMIN_PORT: "0", YOUTUBE_BASE_URL: youtube.origin });
    expect((await fetch(`${await adminUrlOf(service)}/readyz`)).status).toBe(200);
    const answered = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, { "x-api-key": key });
    expect(answered.status).toBe(200);
    expect(service.output()).not.toContain(PASSWORD);
  });

  test("an API_KEYS entry shorter than 32 characters is a start-up warning naming its place, never the key", async () => {
    const short = "short-but-secret-key";
    const long = `vcs_${"k".repeat(40)}`;
    service = await startService({ API_KEYS: `${long},${short}`, YOUTUBE_BASE_URL: youtube.origin });
    const warnings = (await service.outputWith("api_key_short")).split("\n").filter((l) => l.includes("api_key_short"));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: "warn", event: "api_key_short", position: 2, length: 20 });
    expect(service.output()).not.toContain(short);
    expect(service.output()).not.toContain(long);
    // A warning, not a refusal: the short key still works.
    const answered = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, {
      "x-api-key": short,
    });
    expect(answered.status).toBe(200);
  });
});
