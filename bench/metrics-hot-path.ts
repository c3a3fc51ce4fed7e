/** @module Measures in process what the Prometheus metrics add to a cached `POST /chat`. */
/**
 * What the Prometheus metrics add to a cached `POST /chat`, measured in
 * process: the real start-up (`runService`) run twice in one process, on a
 * runtime whose `serve` only hands back the fetch handler, once without and
 * once with `ADMIN_PORT`. Chunks of cached requests alternate between the two
 * (16 at a time, a turn of the event loop between batches), and each chunk's
 * CPU time (`process.cpuUsage`, microsecond resolution) goes to its variant,
 * so machine noise falls on both alike. What this leaves out: the default
 * process metrics' own timers, which cost per second, not per request, and
 * run during both variants' chunks. Over the wire, a server's CPU read from
 * /proc in 10 ms ticks moves by more than this cost between rounds on a
 * shared machine, which is why this bench measures in process.
 *
 *   bun bench/metrics-hot-path.ts [--chunks 60] [--chunk-requests 2000]
 */
import { parseArgs } from "node:util";
import { runService, type Runtime } from "../src/app/start/start.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { median } from "../tests/support/rss.ts";

const { values: args } = parseArgs({
  options: { chunks: { type: "string", default: "60" }, "chunk-requests": { type: "string", default: "2000" } },
});
const CHUNKS = Number(args.chunks);
const CHUNK_REQUESTS = Number(args["chunk-requests"]);
const KEY = "bench-key-0123456789";
const BATCH = 16;

type Handler = (request: Request) => Promise<Response>;

/** @returns the public fetch handler of a service started by the real start-up code */
async function startInProcess(youtubeOrigin: string, admin: boolean): Promise<Handler> {
  let handler: Handler | undefined;
  const runtime: Runtime = {
    name: "bench",
    env: {
      API_KEYS: KEY,
      YOUTUBE_BASE_URL: youtubeOrigin,
      LOG_FORMAT: "json",
      PORT: "3000",
      ...(admin ? { ADMIN_PORT: "9100" } : {}),
    },
    stdoutIsTerminal: false,
    print: () => {},
    printError: (line) => console.error(line),
    exit: (code) => process.exit(code),
    serve: (options) => {
      if (options.port === 3000) handler = options.fetch;
      return { port: options.port, stop: async () => {}, abort: async () => {} };
    },
    onStopSignal: () => {},
  };
  await runService(runtime);
  return handler!;
}

async function ask(handler: Handler): Promise<void> {
  const response = await handler(
    new Request("http://127.0.0.1:3000/chat", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: '{"url":"https://youtu.be/GJLlxj_dtq8"}',
    }),
  );
  if (response.status !== 200) throw new Error(`POST /chat answered ${response.status}: ${await response.text()}`);
  await response.text();
}

/** @returns CPU µs per request over `count` requests */
async function chunk(handler: Handler, count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let done = 0; done < count; done += BATCH) {
    await Promise.all(Array.from({ length: BATCH }, () => ask(handler)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const youtube = startFakeYoutube();
try {
  const plain = await startInProcess(youtube.origin, false);
  const measured = await startInProcess(youtube.origin, true);
  await chunk(plain, 20_000); // warm-up: answers cached, code compiled
  await chunk(measured, 20_000);
  const without: number[] = [];
  const withMetrics: number[] = [];
  for (let i = 0; i < CHUNKS; i++) {
    // Alternating order, so neither variant always follows the other.
    if (i % 2 === 0) {
      without.push(await chunk(plain, CHUNK_REQUESTS));
      withMetrics.push(await chunk(measured, CHUNK_REQUESTS));
    } else {
      withMetrics.push(await chunk(measured, CHUNK_REQUESTS));
      without.push(await chunk(plain, CHUNK_REQUESTS));
    }
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const pairs = without.map((value, i) => withMetrics[i]! - value);
  console.log(
    `metrics-hot-path: ${CHUNKS} alternating chunks x ${CHUNK_REQUESTS} cached POST /chat per variant, in process (no HTTP)`,
  );
  console.log(
    `without ADMIN_PORT: median ${median(without).toFixed(2)} µs, mean ${
      (sum(without) / CHUNKS).toFixed(2)
    } µs CPU per request`,
  );
  console.log(
    `with ADMIN_PORT:    median ${median(withMetrics).toFixed(2)} µs, mean ${
      (sum(withMetrics) / CHUNKS).toFixed(2)
    } µs CPU per request`,
  );
  console.log(
    `added by the metrics: median of paired differences ${
      median(pairs).toFixed(2)
    } µs per cached request (goal: under 2 µs)`,
  );
} finally {
  await youtube.close();
}
// The two in-process services keep timers (the default metrics' sampling): nothing else ends them.
process.exit(0);
