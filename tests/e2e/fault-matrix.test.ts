/** @module End-to-end fault matrix: every upstream call times every fault, checked for status, code and timing. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VIDEOS } from "../support/fixtures.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { ask, type ChatOutcome, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";
import {
  type Cell,
  cells,
  type FaultName,
  FAULTS,
  LIMITS,
  UNREACHABLE,
  type Upstream,
  UPSTREAMS,
} from "./fault-matrix-cells.ts";

/**
 * The fault matrix: every upstream call (YouTube player, watch page, caption
 * track, LLM) times every fault, end to end through POST /chat against one
 * service with low limits. Each cell checks the documented status and code,
 * Retry-After, the time taken against the configured limits, and that the
 * next normal request succeeds. The matrix is printed for people reading CI.
 */

let rig: YoutubeRig;
const printed = new Map<string, string>();
const key = (upstream: Upstream, fault: FaultName) => `${upstream}|${fault}`;

beforeAll(async () => {
  rig = await startYoutubeRig(Object.fromEntries(Object.entries(LIMITS).map(([name, value]) => [name, String(value)])));
});

afterAll(async () => {
  console.log(matrix());
  await rig?.close();
});

async function restore(): Promise<void> {
  rig.youtube.acceptConnections();
  rig.llm.acceptConnections();
  rig.youtube.reset();
  rig.llm.reset();
}

function describeOutcome(outcome: ChatOutcome): string {
  const retryAfter = outcome.retryAfter === null ? "" : ` ra=${outcome.retryAfter}`;
  return `${outcome.status} ${outcome.code ?? "ok"}${retryAfter} ${Math.round(outcome.ms)}ms`;
}

describe(`fault matrix through POST /chat (${targetFromEnv()})`, () => {
  test.each(cells().map((cell) => [`${cell.upstream}: ${cell.fault}`, cell] as const))(
    "%s",
    async (_, cell: Cell) => {
      await restore();
      await cell.arrange(rig);
      const outcome = await ask(rig.service, VIDEOS.normal.id);
      const llmCalls = rig.llm.calls.length;
      printed.set(key(cell.upstream, cell.fault), describeOutcome(outcome));
      await restore();
      const next = await ask(rig.service, VIDEOS.normal.id);

      expect([outcome.status, outcome.code]).toEqual([cell.status, cell.code]);
      expect(outcome.body.error?.request_id).toBeString();
      if (cell.retryAfter !== undefined) expect(outcome.retryAfter).toBe(cell.retryAfter);
      expect(outcome.ms).toBeLessThan(cell.maxMs);
      if (cell.message) expect(outcome.message).toContain(cell.message);
      if (cell.minMs !== undefined) expect(outcome.ms).toBeGreaterThanOrEqual(cell.minMs);
      if (cell.llmCalls) {
        expect(llmCalls).toBeGreaterThanOrEqual(cell.llmCalls[0]);
        expect(llmCalls).toBeLessThanOrEqual(cell.llmCalls[1]);
      }
      expect([next.status, next.code]).toEqual([200, undefined]);
    },
    20_000,
  );
});

/** @returns the matrix as a table: faults down, upstream calls across */
function matrix(): string {
  for (const cell of UNREACHABLE) printed.set(key(cell.upstream, cell.fault), "n/a (shared origin)");
  const width = 32;
  const rows = [
    ["fault", ...UPSTREAMS],
    ...FAULTS.map((fault) => [fault, ...UPSTREAMS.map((u) => printed.get(key(u, fault)) ?? "not run")]),
  ];
  const lines = rows.map((row) => row.map((text, i) => text.padEnd(i === 0 ? 24 : width)).join(" ").trimEnd());
  const notes = UNREACHABLE.map((u) => `  ${u.upstream} / ${u.fault}: ${u.why}`);
  return [
    `fault matrix (status code [ra=Retry-After] time), ${
      Object.entries(LIMITS).map(([k, v]) => `${k}=${v}`).join(" ")
    }:`,
    ...lines,
    "not separately reachable:",
    ...notes,
  ].join("\n");
}
