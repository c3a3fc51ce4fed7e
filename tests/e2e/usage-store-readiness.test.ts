/** @module End-to-end test that a usage store failing keys with quotas takes the instance out of /readyz. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { adminUrlOf, postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-usage-ready-key-0123456789abcdef";
let youtube: FakeYoutube;
let dir: string;
let service: RunningService | undefined;

beforeAll(() => {
  youtube = startFakeYoutube();
  dir = mkdtempSync(join(tmpdir(), "vcs-usage-ready-"));
});
afterAll(async () => {
  await service?.stop("SIGKILL");
  await youtube?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`a usage store that cannot be written (${targetFromEnv()})`, () => {
  test(
    "a corrupt usage file under QUOTA: the answer is metered on what the instance knows, and /readyz says 503",
    async () => {
      const folder = join(dir, "corrupt");
      mkdirSync(folder);
      writeFileSync(join(folder, "usage.sqlite"), "this is not an SQLite database ".repeat(200));
      service = await startService({
        API_KEYS: KEY,
        QUOTA: "100min/day",
        KEYS_FILE: join(folder, "api-keys.json"),
        YOUTUBE_BASE_URL: youtube.origin,
        ADMIN_PORT: "0",
        READINESS_REDIS_GRACE_MS: "0",
      });
      const admin = await adminUrlOf(service);
      expect((await fetch(`${admin}/readyz`)).status).toBe(200);
      const answered = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, {
        "x-api-key": KEY,
      });
      await answered.arrayBuffer();
      expect(answered.status).toBe(200);
      await Bun.sleep(20);
      const readyz = await fetch(`${admin}/readyz`);
      expect([readyz.status, await readyz.json()]).toEqual([
        503,
        expect.objectContaining({ status: "not_ready", reason: "usage_store_unavailable" }),
      ]);
      // Fixed (the file replaced by a good one): the counts waiting in memory are written, and it is ready again.
      rmSync(join(folder, "usage.sqlite"));
      let status = 503;
      for (const until = Date.now() + 10_000; status !== 200 && Date.now() < until; await Bun.sleep(200)) {
        status = (await fetch(`${admin}/readyz`)).status;
      }
      expect(status).toBe(200);
    },
    60_000,
  );
});
