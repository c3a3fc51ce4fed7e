/** @module The container image, run for real by podman against the loopback fakes (scripts/image/test.sh builds it). */
// Run by scripts/image/test.sh as `bun test ./tests/image/image.podman.ts` (its name keeps it out of `bun test tests/`,
// which has no podman). The tests run in order on one container: issue a key, serve, probe, stop.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { ANSWERS, type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { adminUrlOf, postChat, type RunningService } from "../support/service/process.ts";
import { containerProcess, IMAGE, podman, podmanOk, rootMountOptions, startContainer } from "./podman.ts";

const NAME = `vcs-image-test-${process.pid}`;
const VOLUME = `${NAME}-data`;
/** Read-only root, without the tmpfs podman adds by default on /tmp and /run: only the /data volume is writable. */
const READ_ONLY = ["--read-only", "--read-only-tmpfs=false", "--volume", `${VOLUME}:/data`];
const GRACE_MS = 10_000;

let youtube: FakeYoutube;
let llm: FakeLlm;
let service: RunningService | undefined;
let issuedKey = "";

beforeAll(async () => {
  await podmanOk(["image", "exists", IMAGE]);
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  await podmanOk(["volume", "create", VOLUME]);
});

afterAll(async () => {
  await podman(["rm", "--force", "--time", "0", NAME]);
  await service?.stop("SIGKILL");
  await podman(["volume", "rm", "--force", VOLUME]);
  await youtube?.close();
  await llm?.close();
});

function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (condition()) resolve();
      else if (Date.now() > deadline) reject(new Error("condition not met in time"));
      else setTimeout(poll, 10);
    };
    poll();
  });
}

describe(`the container image (${IMAGE})`, () => {
  test("declares a numeric non-root user, SIGTERM to stop, only the public port (-P leaves the admin port), /data", async () => {
    const [image] = JSON.parse(await podmanOk(["image", "inspect", IMAGE])) as {
      Config: { User: string; StopSignal: string; ExposedPorts: object; Volumes: object; Env: string[] };
    }[];
    expect(image!.Config.User).toBe("65532:65532");
    expect(image!.Config.StopSignal).toBe("SIGTERM");
    expect(Object.keys(image!.Config.ExposedPorts).sort()).toEqual(["3000/tcp"]);
    expect(Object.keys(image!.Config.Volumes)).toEqual(["/data"]);
    expect(image!.Config.Env).toContain("KEYS_FILE=/data/api-keys.json");
    expect(image!.Config.Env).toEqual(expect.arrayContaining(["PORT=3000", "ADMIN_PORT=9100"]));
  });

  test("holds CA certificates and no shell", async () => {
    const root = await podmanOk(["image", "mount", IMAGE]);
    try {
      expect(readFileSync(`${root}/etc/ssl/certs/ca-certificates.crt`, "utf8")).toContain("BEGIN CERTIFICATE");
      const shells = ["bin/sh", "bin/bash", "bin/dash", "bin/busybox", "usr/bin/sh", "usr/bin/bash", "usr/bin/dash"];
      expect(shells.filter((path) => existsSync(`${root}/${path}`))).toEqual([]);
    } finally {
      await podman(["image", "unmount", IMAGE]);
    }
  });

  test("on a read-only root filesystem, `keys create` writes the issued key to the data volume", async () => {
    const created = await podman([
      "run",
      "--rm",
      ...READ_ONLY,
      IMAGE,
      "keys",
      "create",
      "--name",
      "image-test",
      "--json",
    ]);
    expect(created.code).toBe(0);
    issuedKey = (JSON.parse(created.out) as { key: string }).key;
    expect(issuedKey.length).toBeGreaterThan(20);
    const mountpoint = await podmanOk(["volume", "inspect", "--format", "{{.Mountpoint}}", VOLUME]);
    const file = statSync(`${mountpoint}/api-keys.json`);
    expect(file.uid).toBe(65532);
    expect(readFileSync(`${mountpoint}/api-keys.json`, "utf8")).not.toContain(issuedKey);
  });

  test("read-only but for /data, the service answers POST /chat with the issued key against the fakes", async () => {
    service = await startContainer(NAME, {
      YOUTUBE_BASE_URL: youtube.origin,
      GROQ_API_KEY: "gsk_fake",
      GROQ_BASE_URL: llm.baseUrl,
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      LOG_FORMAT: "json",
    }, READ_ONLY);
    const response = await postChat(service.url, { url: watchUrl("normal"), prompt: "Is the keyboard good?" }, {
      "x-api-key": issuedKey,
    });
    expect(response.status).toBe(200);
    expect((await response.json()).output).toBe(ANSWERS.en);
    expect(llm.calls.length).toBe(1);
    expect(youtube.seen.length).toBeGreaterThan(0);
  });

  test("/readyz and /healthz answer on the admin port, and the public port does not serve them", async () => {
    const admin = await adminUrlOf(service!);
    const ready = await fetch(`${admin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    expect((await fetch(`${admin}/healthz`)).status).toBe(200);
    expect((await fetch(`${service!.url}/readyz`)).status).toBe(404);
  });

  test("its process runs as 65532, not root, on a root filesystem mounted read-only", async () => {
    const { pid, uids, gids } = await containerProcess(NAME);
    expect(uids).toEqual([65532, 65532, 65532, 65532]);
    expect(gids).toEqual([65532, 65532, 65532, 65532]);
    expect(rootMountOptions(pid)).toContain("ro");
  });

  test("podman stop (SIGTERM) with three requests in flight: each gets 200, and it exits 0 within the grace", async () => {
    llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 1_500 }));
    const before = llm.calls.length;
    const inFlight = ["one", "two", "three"].map((word) =>
      postChat(service!.url, { url: watchUrl("normal"), prompt: `question ${word}?` }, { "x-api-key": issuedKey })
    );
    await waitFor(() => llm.calls.length >= before + 3, 10_000);
    const started = Date.now();
    // podman stop sends the image's STOPSIGNAL, and SIGKILL only after 30 s: an exit before then is the service's.
    const stopped = podman(["stop", "--time", "30", NAME]);
    const responses = await Promise.all(inFlight);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await service!.finished()).toBe(0);
    expect(Date.now() - started).toBeLessThan(GRACE_MS);
    expect((await stopped).code).toBe(0);
    expect(service!.output()).toContain("shutdown_complete");
  });
});
