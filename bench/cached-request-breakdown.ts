/** @module Benchmark of where a cached `POST /chat` spends its time, stage by stage, at the HTTP level. */
/**
 * Where a cached `POST /chat` spends its time, at the HTTP level: the same
 * load against a ladder of servers, each adding one part of the service's
 * cached path (bench/breakdown-server.ts), from a bare `Bun.serve` handler
 * to the full service. Prints, per stage, requests per second and the
 * server's CPU time per request (user + system, from /proc), the medians of
 * --rounds rounds run in turn (every other round in reverse order), and
 * what each stage adds.
 *
 *   bun bench/cached-request-breakdown.ts [--rounds 3] [--requests 30000] [--connections 16] [--stages service,service+metrics]
 *
 * `service+metrics` is the service with `ADMIN_PORT` set (prom-client loaded,
 * every request counted and timed); `--stages service,service+metrics`
 * compares the two alone, in turn, in one run.
 *
 * The client is pinned to CPU 0 and each server to CPU 1 when `taskset` is
 * there (less scheduler noise on a 2-core machine). Loopback only; every
 * process is stopped; about 7 stages × rounds × 4 s.
 */
import { spawn, spawnSync } from "bun";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { startFakeYoutube } from "../tests/support/fake-youtube.ts";
import { ROOT } from "../tests/support/service-process.ts";
import { median } from "../tests/soak/rss.ts";
import { LoadConnection } from "./load-http-connection.ts";
import { freePort } from "./startup-measure.ts";
import { BODY, cpuSeconds, KEY } from "./cached-load.ts";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    requests: { type: "string", default: "30000" },
    connections: { type: "string", default: "16" },
    stages: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds);
const REQUESTS = Number(args.requests);
const CONNECTIONS = Number(args.connections);

const ALL_STAGES: { name: string; what: string; command: string[]; admin?: boolean }[] = [
  {
    name: "bare",
    what: "Bun.serve parsing the body, fixed JSON (the goal's baseline)",
    command: ["bench/startup-bare-server.ts", "bare"],
  },
  { name: "elysia", what: "+ Elysia route with the body schema", command: ["bench/breakdown-server.ts", "elysia"] },
  {
    name: "body",
    what: "+ the service's body reading and schema check",
    command: ["bench/breakdown-server.ts", "body"],
  },
  { name: "key", what: "+ API-key check (SHA-256 lookup)", command: ["bench/breakdown-server.ts", "key"] },
  {
    name: "rules",
    what: "+ request rules (URL to video id, defaults)",
    command: ["bench/breakdown-server.ts", "rules"],
  },
  { name: "answer", what: "+ answer-cache lookup and response JSON", command: ["bench/breakdown-server.ts", "answer"] },
  {
    name: "service",
    what: "the service: + request id, rate limit, log line, Server-Timing",
    command: ["src/app/main-bun.ts"],
  },
  // Not a step of the ladder: bare plus only the request log line, one duty the service may not drop.
  {
    name: "bare+log",
    what: "reference: bare + the service's request log line only",
    command: ["bench/startup-bare-server.ts", "logged"],
  },
  // Not a step either: the service with the admin port, so metrics are recorded on every request.
  {
    name: "service+metrics",
    what: "the service with ADMIN_PORT: + Prometheus metrics (compare with service)",
    command: ["src/app/main-bun.ts"],
    admin: true,
  },
];
const wanted = args.stages?.split(",");
// In the order given, so an order effect can be checked by swapping them.
const STAGES = wanted
  ? wanted.map((name) => ALL_STAGES.find((stage) => stage.name === name) ?? unknownStage(name))
  : ALL_STAGES;

function unknownStage(name: string): never {
  throw new Error(`Unknown stage ${name}; one of ${ALL_STAGES.map((stage) => stage.name).join(", ")}`);
}

const pinned = availableParallelism() >= 2 &&
  spawnSync(["taskset", "-pc", "0", String(process.pid)], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const youtube = startFakeYoutube();

async function waitForHttp(url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      await fetch(url);
      return;
    } catch {
      await Bun.sleep(25);
    }
  }
  throw new Error(`${url} never answered`);
}

async function measure(stage: (typeof STAGES)[number]): Promise<{ rps: number; cpuMicros: number }> {
  const port = await freePort();
  const command = [...(pinned ? ["taskset", "-c", "1"] : []), process.execPath, ...stage.command];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    PORT: String(port),
    HOST: "127.0.0.1",
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    LOG_FORMAT: "json",
  };
  if (stage.admin) env.ADMIN_PORT = String(await freePort());
  const child = spawn(command, { cwd: ROOT, env, stdout: "ignore", stderr: "inherit" });
  const connections: LoadConnection[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`);
    for (let i = 0; i < CONNECTIONS; i++) connections.push(await LoadConnection.open("127.0.0.1", port));
    const run = async (count: number): Promise<void> => {
      let left = count;
      await Promise.all(
        connections.map(async (connection) => {
          while (left-- > 0) {
            const response = await connection.post("/chat", { "x-api-key": KEY }, BODY, 10_000);
            if (response.status !== 200) {
              throw new Error(`${stage.name}: POST /chat answered ${response.status} ${response.code ?? ""}`);
            }
          }
        }),
      );
    };
    await run(Math.min(5_000, REQUESTS)); // warm-up: caches filled, code compiled
    const cpuBefore = cpuSeconds(child.pid);
    const started = performance.now();
    await run(REQUESTS);
    const seconds = (performance.now() - started) / 1000;
    const cpuUsed = cpuSeconds(child.pid) - cpuBefore;
    return { rps: REQUESTS / seconds, cpuMicros: (cpuUsed * 1e6) / REQUESTS };
  } finally {
    for (const connection of connections) connection.close();
    child.kill("SIGTERM");
    await child.exited;
  }
}

try {
  console.log(
    `cached-request-breakdown: ${ROUNDS} rounds x ${REQUESTS} cached POST /chat per stage over ${CONNECTIONS} keep-alive connections${
      pinned ? ", client on CPU 0, server on CPU 1" : " (not pinned)"
    }`,
  );
  const results = new Map<string, { rps: number[]; cpu: number[] }>(
    STAGES.map((stage) => [stage.name, { rps: [], cpu: [] }]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round runs the stages in reverse: a stage run right after another measured
    // lower, whichever it was (16 µs apart for the same two servers swapped), so order is balanced.
    for (const stage of round % 2 === 0 ? STAGES : [...STAGES].reverse()) {
      const { rps, cpuMicros } = await measure(stage);
      results.get(stage.name)!.rps.push(rps);
      results.get(stage.name)!.cpu.push(cpuMicros);
    }
  }
  const baseline = results.has("bare") ? "bare" : STAGES[0]!.name;
  const bare = results.get(baseline)!;
  const bareRps = median(bare.rps);
  let previous: number | undefined;
  for (const stage of STAGES) {
    const { rps, cpu } = results.get(stage.name)!;
    const micros = median(cpu);
    if (stage.name === "bare+log") previous = median(bare.cpu);
    const service = results.get("service")?.cpu ?? [];
    if (stage.name === "service+metrics" && service.length > 0) previous = median(service);
    const added = previous === undefined
      ? ""
      : `  (${micros - previous >= 0 ? "+" : ""}${(micros - previous).toFixed(1)} µs)`;
    console.log(
      `${stage.name.padEnd(15)} ${median(rps).toFixed(0).padStart(6)} req/s = ${
        (median(rps) / bareRps).toFixed(2)
      } of ${baseline.padEnd(7)} server CPU ${micros.toFixed(1).padStart(5)} µs/request${
        added.padEnd(13)
      }  ${stage.what}`,
    );
    previous = micros;
  }
  // Each round's figure too: on a shared machine the spread says how far to trust a difference of medians.
  for (const stage of STAGES) {
    console.log(
      `  ${stage.name.padEnd(15)} CPU µs/request by round: ${
        results.get(stage.name)!.cpu.map((c) => c.toFixed(1)).join(" ")
      }`,
    );
  }
  console.log(`(medians of ${ROUNDS}; CPU per request from /proc's 100 Hz ticks over ${REQUESTS} requests)`);
} finally {
  await youtube.close();
}
