/** @module The cached path under sustained load (8-s wrk runs), metered too, and a new question's own time, by revision. */
/**
 * The cached `POST /chat` as users load it: runs of several seconds, not the ~1-s rounds of cached-revisions.ts, so
 * what a short run hides (the log's writes piling up, the ledger's write-behind, timers, garbage collection) counts.
 * A keyed bare `Bun.serve` and the service of each git revision (a worktree under /tmp) run at once; each run visits
 * them in turn (the order rotates from run to run) with wrk, one thread, `--connections`, `--seconds` each:
 *
 * - cached: every request the same cached answer, on a key without quota;
 * - `+quota`: the same on a key with quotas (`QUOTA`, never reached), metered in the default store (the SQLite usage
 *   file, no Redis), for revisions that have a usage meter;
 * - a new question: `--questions` questions never asked before about the cached video, one at a time, the fake LLM
 *   answering at once; own time = latency minus the fake's time.
 *
 * Ratios are to the bare server's req/s in the same run; own times are compared between revisions run by run.
 * Stdout of each server goes to `--log`: `pipe` (default) drained by another process as a supervisor would, `null`
 * (/dev/null) or `file`. Loopback only; stops by itself; every process and worktree is removed at the end.
 *
 *   bun bench/cached-sustained.ts [--revisions 4d99254,HEAD] [--runs 4] [--seconds 8] [--connections 16]
 *     [--questions 40] [--log pipe|null|file] [--metered yes|no]
 *
 * A revision may be a folder (`.`, or a path with a `/`): its files as they are, to measure a change before committing.
 *
 * About runs × (targets × (seconds + 0.2) + 1) s plus 15 s of start-up: 4 × (5 × 8.2 + 1) ≈ 3 minutes by default.
 */
import { which } from "bun";
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { ROOT } from "../tests/support/service/process.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { median } from "../tests/support/rss.ts";
import { cpuSeconds, runWrk, waitForAnswer, writeWrkScript } from "./support/cached-load.ts";
import { ownTimes } from "./support/new-question.ts";
import { createRevisionServers, hasUsageMeter, type LogSink, type RevisionServer } from "./support/revision-servers.ts";
import { printTable, type Target } from "./support/sustained-table.ts";

const { values: args } = parseArgs({
  options: {
    revisions: { type: "string", default: "4d99254,HEAD" },
    runs: { type: "string", default: "4" },
    seconds: { type: "string", default: "8" },
    connections: { type: "string", default: "16" },
    questions: { type: "string", default: "40" },
    log: { type: "string", default: "pipe" },
    metered: { type: "string", default: "yes" },
  },
});

if (!which("wrk")) {
  console.log("cached-sustained: wrk is not installed (apt-get install -y wrk); skipped");
  process.exit(0);
}

/** Quotas never reached: every answer holds its request and minutes in the usage file, and sends Quota-* headers. */
const QUOTA = "100000000req/day,100000000min/day";
const log = args.log as LogSink;
const script = `/tmp/cached-sustained-${process.pid}.lua`;
writeWrkScript(script);
const youtube = startFakeYoutube();
const llm = startFakeLlm();
const rig = createRevisionServers("cached-sustained", { youtube: youtube.origin, llm });
const targets: Target[] = [];
const questioned: { name: string; server: RevisionServer; ownMs: number[][]; calls: number[] }[] = [];

function visit(target: Target): void {
  const before = cpuSeconds(target.server.child.pid);
  const url = `http://127.0.0.1:${target.server.port}/chat`;
  const { requests, rate } = runWrk(url, { script, connections: args.connections!, seconds: args.seconds! });
  target.rates.push(rate);
  target.cpuMicros.push(((cpuSeconds(target.server.child.pid) - before) / requests) * 1e6);
}

/** `items` rotated by `by`: each run starts with another one, so none always follows the same. */
const rotated = <T>(items: T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length]!);

try {
  const uptimeBefore = await Bun.$`uptime`.text();
  const bare = await rig.start("bare", [process.execPath, "bench/support/bare-server.ts", "keyed"], ROOT, { log });
  targets.push({ name: "bare", server: bare, rates: [], cpuMicros: [] });
  for (const revision of args.revisions!.split(",")) {
    const server = await rig.startRevision(revision, revision, { log });
    targets.push({ name: revision, server, rates: [], cpuMicros: [] });
    questioned.push({ name: revision, server, ownMs: [], calls: [] });
    if (args.metered === "no" || !hasUsageMeter(server.dir)) continue;
    const metered = await rig.startRevision(`${revision}+quota`, revision, { log, env: { QUOTA } });
    targets.push({ name: `${revision}+quota`, server: metered, rates: [], cpuMicros: [] });
  }
  for (const { name, server } of targets) {
    await waitForAnswer(`http://127.0.0.1:${server.port}/chat`).catch((error) => {
      throw new Error(`${name}: ${error}`);
    });
    runWrk(`http://127.0.0.1:${server.port}/chat`, { script, connections: args.connections!, seconds: 1 });
  }
  const questions = Number(args.questions);
  if (questions > 0) { for (const { server } of questioned) await ownTimes(server.port, llm, 5); }
  for (let run = 0; run < Number(args.runs); run++) {
    for (const target of rotated(targets, run)) visit(target);
    if (questions === 0) continue;
    for (const entry of rotated(questioned, run)) {
      const { times, calls } = await ownTimes(entry.server.port, llm, questions);
      entry.ownMs.push(times);
      entry.calls.push(calls);
    }
  }
  const uptimeAfter = await Bun.$`uptime`.text();
  console.log(
    `cached-sustained: ${args.runs} runs, wrk -t1 -c${args.connections} -d${args.seconds}s per target, log ${log}; ` +
      `load before:${uptimeBefore.split("load average:")[1]?.trimEnd()}, after:${
        uptimeAfter.split("load average:")[1]?.trimEnd()
      }`,
  );
  printTable(
    targets,
    questions > 0
      ? questioned.map(({ name, ownMs, calls }) => ({ name, medians: ownMs.map(median), calls: median(calls) }))
      : [],
  );
} finally {
  await rig.close();
  await youtube.close();
  await llm.close();
  rmSync(script, { force: true });
}
process.exit(0);
