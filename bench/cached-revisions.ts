/** @module Benchmark of the cached `POST /chat` of several git revisions side by side, with wrk, to say what a cut was worth. */
/**
 * What a change to the cached path was worth: the service of each git revision (a detached
 * worktree under /tmp, sharing this checkout's node_modules) and the bare keyed `Bun.serve` of
 * cached-wrk.ts all run at once, each on its own port; wrk (Debian's) then visits them in turn,
 * round after round, a short run each, so every revision meets the machine's load as the others
 * do. Per server it prints the median req/s, the median ratio to bare within each round, and the
 * server's CPU time per request (user + system from /proc), the steadier figure on a shared machine.
 *
 *   bun bench/cached-revisions.ts --revisions 09eb796,HEAD [--rounds 16] [--seconds 1] [--connections 16]
 *     [--rate-limit 100000000/min]
 *
 * `--rate-limit` gives every revision's key that limit, so the RateLimit-* headers are built and sent;
 * a revision written `HEAD+limit` gets it alone, 100000000/min unless `--rate-limit` says otherwise
 * (`--revisions HEAD,HEAD+limit` shows what the limit costs). A revision written `HEAD+quota` gets
 * `QUOTA=100000000req/day` (never reached: every answer holds its request in the usage file first,
 * and sends the Quota-* headers); `--revisions HEAD,HEAD+quota` shows what a key's quota costs.
 *
 * Loopback only; every process and worktree is removed at the end. About
 * (revisions + 1) × (rounds × (seconds + 0.1) + 2) s.
 */
import { spawn, spawnSync, which } from "bun";
import { rmSync, symlinkSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { ROOT } from "../tests/support/service/process.ts";
import { median } from "../tests/support/rss.ts";
import { freePort } from "./support/startup-measure.ts";
import { rateLimitOff } from "./support/trees.ts";
import { cpuSeconds, runWrk, serviceEnv, waitForAnswer, writeWrkScript } from "./support/cached-load.ts";

const { values: args } = parseArgs({
  options: {
    revisions: { type: "string", default: "HEAD" },
    rounds: { type: "string", default: "16" },
    seconds: { type: "string", default: "1" },
    connections: { type: "string", default: "16" },
    "rate-limit": { type: "string" },
  },
});

if (!which("wrk")) {
  console.log("cached-revisions: wrk is not installed (apt-get install -y wrk); skipped");
  process.exit(0);
}

interface Server {
  name: string;
  port: number;
  child: ReturnType<typeof spawn>;
  rates: number[];
  cpuMicros: number[];
}

const script = `/tmp/cached-revisions-${process.pid}.lua`;
writeWrkScript(script);
const youtube = startFakeYoutube();
const worktrees: string[] = [];
const servers: Server[] = [];

/** A detached worktree of `revision`, using this checkout's packages. */
function checkout(revision: string): string {
  const dir = `/tmp/cached-revisions-${process.pid}-${worktrees.length}`;
  const added = spawnSync(["git", "worktree", "add", "--detach", "-f", dir, revision], { cwd: ROOT });
  if (added.exitCode !== 0) throw new Error(`git worktree add ${revision}: ${added.stderr.toString()}`);
  worktrees.push(dir);
  symlinkSync(`${ROOT}/node_modules`, `${dir}/node_modules`);
  return dir;
}

/** The key limit of a `REV+limit` server: never reached, so every answer is a 200 with RateLimit-* headers. */
const LIMIT = args["rate-limit"] ?? "100000000/min";

async function start(name: string, command: string[], cwd: string, variant = ""): Promise<Server> {
  const port = await freePort();
  const env = serviceEnv(port, youtube.origin);
  // No limit unless asked for: a revision with a default one (60/min) would refuse the load.
  const off = rateLimitOff(cwd).RATE_LIMIT;
  if (off) env.RATE_LIMIT = off;
  if (args["rate-limit"] || variant === "+limit") env.RATE_LIMIT = LIMIT;
  if (variant === "+quota") env.QUOTA = "100000000req/day";
  const child = spawn(command, { cwd, env, stdout: "ignore", stderr: "inherit" });
  return { name, port, child, rates: [], cpuMicros: [] };
}

async function warm(server: Server): Promise<void> {
  const url = `http://127.0.0.1:${server.port}/chat`;
  await waitForAnswer(url);
  runWrk(url, { script, connections: args.connections!, seconds: 1 });
}

function run(server: Server): void {
  const before = cpuSeconds(server.child.pid);
  const { connections, seconds } = args;
  const { requests, rate } = runWrk(`http://127.0.0.1:${server.port}/chat`, { script, connections, seconds });
  const after = cpuSeconds(server.child.pid);
  server.rates.push(rate);
  server.cpuMicros.push(((after - before) / requests) * 1e6);
}

try {
  servers.push(await start("bare", [process.execPath, "bench/support/bare-server.ts", "keyed"], ROOT));
  for (const name of args.revisions!.split(",")) {
    const revision = name.replace(/\+(limit|quota)$/, "");
    const resolved = spawnSync(["git", "rev-parse", "--short", revision], { cwd: ROOT }).stdout.toString().trim();
    const command = [process.execPath, "src/app/main-bun.ts"];
    servers.push(await start(`${name} (${resolved})`, command, checkout(revision), name.slice(revision.length)));
  }
  for (const server of servers) await warm(server);
  for (let round = 0; round < Number(args.rounds); round++) for (const server of servers) run(server);
  const bare = servers[0]!;
  for (const server of servers) {
    const ratios = server.rates.map((rate, round) => rate / bare.rates[round]!);
    console.log(
      `cached-revisions: ${server.name.padEnd(20)} ${
        median(server.rates).toFixed(0).padStart(6)
      } req/s, ratio to bare ${median(ratios).toFixed(3)}, server CPU ${
        median(server.cpuMicros).toFixed(1)
      } µs/request (rounds ${Math.min(...server.cpuMicros).toFixed(1)}–${Math.max(...server.cpuMicros).toFixed(1)})`,
    );
  }
} finally {
  for (const server of servers) server.child.kill("SIGTERM");
  await Promise.all(servers.map((server) => server.child.exited));
  await youtube.close();
  for (const dir of worktrees) spawnSync(["git", "worktree", "remove", "--force", dir], { cwd: ROOT });
  rmSync(script, { force: true });
}
process.exit(0);
