/** @module Benchmark of cached answers a second on one Redis and on a Redis Cluster, one instance and two. */
/**
 * Cached answers a second and Redis's cost of each: `bun bench/redis-throughput.ts [--seconds=5]`.
 *
 * Starts the loopback fake YouTube and fake LLM, a keyed bare `Bun.serve` (the baseline), one redis-server and a
 * three-master Redis Cluster of its own. On each store it issues two keys through the keys CLI (one without quota,
 * one with `100000000req/day` and `100000000min/day`), starts one then two instances of `bun run server` (their output
 * ignored: the bench measures the service, not its own reading of logs), fills each key's cached answer, and drives
 * every instance at once with wrk (one thread, 16 connections each) for `--seconds`. It prints the answers a second
 * in all, their ratio to the bare server driven the same way, and what Redis spent on each: CPU (user + system, all
 * nodes) and commands (`INFO commandstats`, commands inside scripts included). On a 2-core machine the service and
 * wrk take the cores: the answers a second are the machine's; the Redis figures per answer are the ones that tell
 * how far one Redis (or one node) carries. Loopback only.
 */
import { spawn, type Subprocess } from "bun";
import { writeFileSync } from "node:fs";
import { Redis } from "ioredis";
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { startOwnRedis } from "../tests/support/redis-server.ts";
import { startOwnCluster } from "../tests/support/redis-cluster.ts";
import { freePort } from "./support/startup-measure.ts";
import { THIS_TREE } from "./support/trees.ts";

const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? 5);
const BODY = JSON.stringify({ url: "https://youtu.be/GJLlxj_dtq8", prompt: "What is the video about?" });

/** A store the service runs on: its settings and a client per master node (one for a single Redis). */
interface Store {
  name: string;
  env: Record<string, string>;
  nodes: Redis[];
}

async function createKey(env: Record<string, string>, quotas: string[]): Promise<string> {
  const child = spawn(
    [process.execPath, "run", "keys", "create", "--name", "bench", ...quotas.flatMap((q) => ["--quota", q]), "--json"],
    { cwd: THIS_TREE, env: { PATH: process.env.PATH ?? "", HOME: "/tmp", ...env }, stdout: "pipe", stderr: "pipe" },
  );
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  if (code !== 0) throw new Error(`keys create failed (${code})`);
  return (JSON.parse(stdout.trim().split("\n").at(-1)!) as { key: string }).key;
}

/** Starts a server process on a free port (output ignored) and waits until it answers. */
async function startServer(
  command: string[],
  env: Record<string, string>,
): Promise<{ url: string; child: Subprocess }> {
  const port = await freePort();
  const child = spawn(command, {
    cwd: THIS_TREE,
    env: { PATH: process.env.PATH ?? "", HOME: "/tmp", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdout: "ignore",
    stderr: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    if (await fetch(url).then(() => true, () => false)) return { url, child };
    await Bun.sleep(25);
  }
  throw new Error(`${command.join(" ")} did not start`);
}

async function warm(url: string, key: string): Promise<void> {
  const response = await fetch(`${url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: BODY,
  });
  if (response.status !== 200) throw new Error(`warm-up answered ${response.status}: ${await response.text()}`);
}

function wrkScript(key: string): string {
  const path = `/tmp/vcs-redis-throughput-${key.slice(-8)}.lua`;
  writeFileSync(
    path,
    `wrk.method = "POST"\nwrk.body = '${BODY}'\nwrk.headers["content-type"] = "application/json"\nwrk.headers["x-api-key"] = "${key}"\n` +
      // The first few answers that are not 200, for the failure's message.
      `shown = 0\nresponse = function(status, headers, body)\n  if status ~= 200 and shown < 3 then\n    shown = shown + 1\n    io.write(status, " ", body:sub(1, 300), "\\n")\n  end\nend\n`,
  );
  return path;
}

/** One wrk (one thread, 16 connections) on `url`; a non-2xx answer fails the bench. */
async function wrk(url: string, script: string): Promise<{ rate: number; requests: number }> {
  const child = spawn(["wrk", "-t1", "-c16", `-d${seconds}s`, "-s", script, url], { stdout: "pipe" });
  const output = await new Response(child.stdout).text();
  await child.exited;
  if (/Non-2xx/.test(output)) throw new Error(`${url}: non-2xx answers:\n${output}`);
  return {
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN),
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN),
  };
}

/** Every instance driven at once by its own wrk; @returns the answers a second in all */
async function drive(urls: string[], key: string): Promise<{ rate: number; requests: number }> {
  const script = wrkScript(key);
  const runs = await Promise.all(urls.map((url) => wrk(`${url}/chat`, script)));
  return runs.reduce((sum, run) => ({ rate: sum.rate + run.rate, requests: sum.requests + run.requests }), {
    rate: 0,
    requests: 0,
  });
}

/** CPU seconds and commands run so far, over every node. */
async function redisCost(nodes: Redis[]): Promise<{ cpu: number; commands: number }> {
  let cpu = 0;
  let commands = 0;
  for (const node of nodes) {
    const info = (await node.info("cpu")) + (await node.info("commandstats"));
    cpu += Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1]);
    for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      if (!/^(info|config|cluster|command)/.test(match[1]!)) commands += Number(match[2]);
    }
  }
  return { cpu, commands };
}

const youtube = startFakeYoutube();
const llm = startFakeLlm();
const upstream = { YOUTUBE_BASE_URL: youtube.origin, GROQ_API_KEY: "gsk_fake", GROQ_BASE_URL: llm.baseUrl };
const redis = await startOwnRedis();
const cluster = await startOwnCluster();
const bareKey = "bench-bare-key-0123456789";
const bare = await startServer([process.execPath, "bench/support/bare-server.ts", "keyed"], { API_KEYS: bareKey });
const stores: Store[] = [
  { name: "one Redis", env: { REDIS_URL: redis.url }, nodes: [new Redis(redis.url)] },
  {
    name: "cluster (3 masters)",
    env: cluster.env,
    nodes: cluster.nodes.map((node) => new Redis(node)),
  },
];
const rows: string[][] = [];
try {
  for (const store of stores) {
    const keys = {
      "no quota": await createKey(store.env, []),
      quotas: await createKey(store.env, ["100000000req/day", "100000000min/day"]),
    };
    for (const count of [1, 2]) {
      const env = { ...store.env, ...upstream, RATE_LIMIT: "none", LOG_FORMAT: "json" };
      const servers = await Promise.all(
        Array.from({ length: count }, () => startServer([process.execPath, "src/app/main-bun.ts"], env)),
      );
      try {
        for (const [kind, key] of Object.entries(keys)) {
          for (const server of servers) await warm(server.url, key);
          const baseline = await drive(Array(count).fill(bare.url), bareKey);
          const before = await redisCost(store.nodes);
          const run = await drive(servers.map((s) => s.url), key);
          const after = await redisCost(store.nodes);
          const cpuUs = ((after.cpu - before.cpu) / run.requests) * 1e6;
          rows.push([
            store.name,
            String(count),
            kind,
            run.rate.toFixed(0),
            (run.rate / baseline.rate).toFixed(2),
            cpuUs.toFixed(1),
            ((after.commands - before.commands) / run.requests).toFixed(2),
          ]);
        }
      } finally {
        for (const server of servers) server.child.kill("SIGKILL");
      }
    }
  }
  const head = ["store", "instances", "key", "answers/s", "of bare", "Redis CPU µs/answer", "commands/answer"];
  console.log(`Cached answers, wrk ${seconds} s a run, 1 thread and 16 connections per instance (load ${loadNow()})`);
  console.log([head, ...rows].map((row) => row.map((cell, i) => cell.padEnd(i < 3 ? 20 : 10)).join(" ")).join("\n"));
} finally {
  for (const node of stores.flatMap((s) => s.nodes)) node.disconnect();
  bare.child.kill("SIGKILL");
  await youtube.close();
  await llm.close();
  await redis.dispose();
  await cluster.dispose();
}

function loadNow(): string {
  return (Bun.spawnSync(["cat", "/proc/loadavg"]).stdout.toString().split(" ").slice(0, 3).join(" "));
}
