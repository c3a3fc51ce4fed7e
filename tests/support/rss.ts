/** @module Reads the resident memory of a process tree from /proc, and a median: for the soak, the memory tests and the benches. */
import { readdirSync, readFileSync } from "node:fs";

/**
 * @returns the resident set size in MiB of a process and all its descendants,
 *   from /proc (Linux); launchers such as `bun run` or `deno task` run the
 *   server as a child, so the tree is what the service costs
 */
export function rssMiB(pid: number): number {
  return treeOf(pid).reduce((sum, p) => sum + ownRssKiB(p), 0) / 1024;
}

function ownRssKiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function treeOf(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (listed) children = children.concat(listed.split(/\s+/).map(Number));
    }
  } catch {
    return [pid];
  }
  return [pid, ...children.flatMap(treeOf)];
}

/** @returns the median of the numbers (NaN for none) */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
