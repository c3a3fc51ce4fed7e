/** @module The table cached-sustained.ts prints: ratios to bare run by run, CPU per request, new questions' own time. */
import { median } from "../../tests/support/rss.ts";
import type { RevisionServer } from "./revision-servers.ts";

/** One server wrk visits, with what each run measured. */
export interface Target {
  name: string;
  server: RevisionServer;
  rates: number[];
  cpuMicros: number[];
}

const range = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/**
 * Prints one row per target (req/s ÷ bare's in the same run, each run and their median and range; CPU µs a request)
 * and one per revision for a new question's own time (median of each run, and ÷ the first revision's in that run).
 */
export function printTable(targets: Target[], questions: { name: string; medians: number[]; calls: number }[]): void {
  const bare = targets[0]!;
  const width = Math.max(...targets.map((t) => t.name.length), 12);
  console.log(`${"target".padEnd(width)}  ratio to bare by run            median  range        req/s   CPU µs/req`);
  for (const target of targets) {
    const ratios = target.rates.map((rate, run) => rate / bare.rates[run]!);
    console.log(
      `${target.name.padEnd(width)}  ${ratios.map((r) => r.toFixed(3)).join(" ").padEnd(30)}  ${
        median(ratios).toFixed(3)
      }  ${range(ratios, 3).padEnd(11)}  ${median(target.rates).toFixed(0).padStart(6)}  ${
        median(target.cpuMicros).toFixed(1).padStart(6)
      } (${range(target.cpuMicros, 1)})`,
    );
  }
  if (questions.length === 0) return;
  const first = questions[0]!;
  console.log(`\nnew question on a cached transcript, own time (latency − fake LLM's time), median of each run, ms`);
  for (const { name, medians, calls } of questions) {
    const ratios = medians.map((ms, run) => ms / first.medians[run]!);
    console.log(
      `${name.padEnd(width)}  ${medians.map((ms) => ms.toFixed(2)).join(" ").padEnd(30)}  ${
        median(medians).toFixed(2)
      } ms  ÷ ${first.name} ${ratios.map((r) => r.toFixed(2)).join(" ")}; LLM calls a question ${calls.toFixed(1)}`,
    );
  }
}
