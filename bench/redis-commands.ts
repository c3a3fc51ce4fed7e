/** @module Benchmark of the Redis commands one request costs, by kind of request and by command. */
/**
 * Redis commands per request: `bun bench/redis-commands.ts [--requests=200] [--before=DIR]`.
 *
 * Starts a redis-server of its own on a free loopback port, the loopback fake
 * YouTube and fake LLM, and `bun run server` of this checkout (and, with
 * `--before`, of another checkout with its node_modules, one after the other,
 * each on a flushed Redis) with `REDIS_URL` set. Two keys are issued through
 * that tree's own keys CLI: one with no quota, one with `100000req/day` and
 * `100000min/day`. For each of four kinds of request (a cached answer and a
 * new question about a cached transcript, with each key) it sends a warm-up,
 * then `--requests` sequential requests between `CONFIG RESETSTAT` and
 * `INFO commandstats` (read after 1.5 s, once what is written behind has
 * been written), and prints the commands per request, in all and by command.
 * Everything the service sends in that time counts, its timers' too.
 * Loopback only.
 */
import { Redis } from "ioredis";
import { spawn } from "bun";
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { watchUrl } from "../tests/support/fixtures.ts";
import { postChat, type RunningService } from "../tests/support/service/process.ts";
import { startOwnRedis } from "../tests/support/redis-server.ts";
import { startTree, THIS_TREE } from "./support/trees.ts";

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const requests = Number(flag("requests") ?? 200);
const before = flag("before");
const SETTLE_MS = 1_500;

interface Kind {
  name: string;
  quota: boolean;
  /** The prompt of request `i` (`-1` the warm-up). */
  prompt(i: number): string;
}

const KINDS: Kind[] = [
  { name: "cached answer, key without quota", quota: false, prompt: () => "What is the video about?" },
  { name: "new question, cached transcript, no quota", quota: false, prompt: (i) => `Plain question ${i}?` },
  { name: "cached answer, key with quotas (req + min per day)", quota: true, prompt: () => "What is said first?" },
  { name: "new question, key with quotas", quota: true, prompt: (i) => `Metered question ${i}?` },
];

/** Commands per request of one kind: the total and each command's. */
interface Counts {
  total: number;
  byCommand: Map<string, number>;
}

/** Issues a key through the keys CLI of the tree at `dir`; returns the key. */
async function createKey(dir: string, env: Record<string, string>, quotas: string[]): Promise<string> {
  const child = spawn(
    [
      process.execPath,
      "run",
      "--cwd",
      dir,
      "keys",
      "create",
      "--name",
      "bench",
      ...quotas.flatMap((q) => ["--quota", q]),
      "--json",
    ],
    {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`keys create in ${dir} failed (${code}): ${stderr}`);
  return (JSON.parse(stdout.trim().split("\n").at(-1)!) as { key: string }).key;
}

/** `INFO commandstats` as calls by command (lower case). */
async function commandStats(admin: Redis): Promise<Map<string, number>> {
  const info = await admin.info("commandstats");
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1]!, Number(match[2]));
  return calls;
}

/** Measures every kind on the tree at `dir`. */
async function measureTree(dir: string, redisUrl: string, admin: Redis, upstream: Record<string, string>) {
  await admin.flushall();
  const env = { REDIS_URL: redisUrl, ...upstream };
  const plain = await createKey(dir, { REDIS_URL: redisUrl }, []);
  const metered = await createKey(dir, { REDIS_URL: redisUrl }, ["100000req/day", "100000min/day"]);
  const service: RunningService = await startTree(dir, env);
  const results = new Map<string, Counts>();
  try {
    for (const kind of KINDS) {
      const key = kind.quota ? metered : plain;
      const ask = async (prompt: string) => {
        const response = await postChat(service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": key });
        await response.text();
        if (response.status !== 200) throw new Error(`${kind.name}: POST /chat answered ${response.status}`);
      };
      await ask(kind.prompt(-1));
      await Bun.sleep(SETTLE_MS);
      await admin.config("RESETSTAT");
      for (let i = 0; i < requests; i++) await ask(kind.prompt(i));
      await Bun.sleep(SETTLE_MS);
      const calls = await commandStats(admin);
      // The bench's own commands: the RESETSTAT counted after the reset, and this INFO.
      for (const own of ["config|resetstat", "config", "info"]) calls.delete(own);
      const byCommand = new Map([...calls].map(([c, n]) => [c, n / requests]));
      results.set(kind.name, { total: [...byCommand.values()].reduce((a, b) => a + b, 0), byCommand });
    }
  } finally {
    await service.stop("SIGKILL");
  }
  return results;
}

function describe(counts: Counts): string {
  const top = [...counts.byCommand].filter(([, n]) => n >= 0.05).sort((a, b) => b[1] - a[1]);
  return top.map(([c, n]) => `${c.toUpperCase()} ${n.toFixed(1)}`).join(", ");
}

const redis = await startOwnRedis();
const youtube = startFakeYoutube();
const llm = startFakeLlm();
const admin = new Redis(redis.url);
const upstream = { YOUTUBE_BASE_URL: youtube.origin, GROQ_API_KEY: "gsk_fake", GROQ_BASE_URL: llm.baseUrl };
try {
  const trees = [...(before ? [["before", before] as const] : []), ["this tree", THIS_TREE] as const];
  const measured = [] as { label: string; results: Map<string, Counts> }[];
  for (const [label, dir] of trees) {
    measured.push({ label, results: await measureTree(dir, redis.url, admin, upstream) });
  }
  console.log(
    `Redis commands per request: ${requests} sequential requests of each kind, one instance, INFO commandstats read ${SETTLE_MS} ms after the last`,
  );
  for (const kind of KINDS) {
    console.log(`\n${kind.name}`);
    const base = measured[0]!.results.get(kind.name)!.total;
    for (const { label, results } of measured) {
      const counts = results.get(kind.name)!;
      const ratio = measured.length > 1 ? ` (${(counts.total / base).toFixed(2)} of before)` : "";
      console.log(`  ${label.padEnd(10)} ${counts.total.toFixed(1).padStart(6)}${ratio}  ${describe(counts)}`);
    }
  }
} finally {
  admin.disconnect();
  await youtube.close();
  await llm.close();
  await redis.dispose();
}
