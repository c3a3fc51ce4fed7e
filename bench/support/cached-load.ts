/** @module What the wrk benches of the cached path share: the request, wrk's script, the service's settings, CPU time. */
import { spawnSync } from "bun";
import { readFileSync, writeFileSync } from "node:fs";

export const KEY = "bench-key-0123456789";
export const BODY = JSON.stringify({ url: "https://youtu.be/GJLlxj_dtq8" });
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/** Writes wrk's Lua script for the cached `POST /chat` at `path`. */
export function writeWrkScript(path: string): void {
  writeFileSync(
    path,
    `wrk.method = "POST"\nwrk.body = '${BODY}'\nwrk.headers["content-type"] = "application/json"\nwrk.headers["x-api-key"] = "${KEY}"\n`,
  );
}

/** The settings a service (or the keyed bare server) runs with: loopback, the bench's key, JSON logs. */
export function serviceEnv(port: number, youtubeOrigin: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    PORT: String(port),
    HOST: "127.0.0.1",
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtubeOrigin,
    // Today's default clients, named for older revisions too: the fake YouTube refuses their older versions.
    YOUTUBE_CLIENTS: "ANDROID:21.26.364,IOS:21.26.4",
    LOG_FORMAT: "json",
  };
}

/** Waits until `url` answers the bench's request with a 200 (the first answer fills the cache). */
export async function waitForAnswer(url: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: BODY,
    }).catch(() => undefined);
    if (response?.status === 200) return;
    await Bun.sleep(25);
  }
  throw new Error(`${url} never answered 200`);
}

/** @returns the CPU time (user + system) process `pid` has used, in seconds */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** One wrk run (one thread) against `url` with `script`: requests sent and req/s; non-2xx answers fail it. */
export function runWrk(
  url: string,
  options: { script: string; connections: string | number; seconds: string | number },
): { requests: number; rate: number } {
  const output = spawnSync([
    "wrk",
    "-t1",
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "-s",
    options.script,
    url,
  ]).stdout.toString();
  if (/Non-2xx/.test(output)) throw new Error(`${url}: non-2xx answers:\n${output}`);
  return {
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN),
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN),
  };
}
