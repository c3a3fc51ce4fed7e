/** @module Checks a metrics exposition with `promtool check metrics`, ignoring known default-metric findings. */
import { spawnSync } from "bun";

/**
 * Lint findings promtool reports on prom-client's own default metrics, not
 * on ours: these three Node.js gauges end in `_total`. Anything else fails.
 */
const DEFAULT_METRICS_FINDINGS = new Set(
  ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"].map((name) =>
    `${name} non-counter metrics should not have "_total" suffix`
  ),
);

/**
 * Checks an exposition with `promtool check metrics` (Debian's `prometheus`
 * package, installed by scripts/install-system-deps.sh): a parse error, or
 * any lint finding but prom-client's known three, is a problem.
 *
 * @returns the problems, none when the exposition is valid
 * @throws when promtool is not installed (a missing tool must fail the suite, not skip it)
 */
export function promtoolProblems(exposition: string): string[] {
  const promtool = Bun.which("promtool");
  if (!promtool) {
    throw new Error("promtool is missing: run scripts/install-system-deps.sh (Debian: apt-get install prometheus)");
  }
  const run = spawnSync([promtool, "check", "metrics"], {
    stdin: new TextEncoder().encode(exposition),
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = `${run.stdout.toString()}${run.stderr.toString()}`.trim();
  // Exit 0: valid; 3: valid but with lint findings (one a line); anything else: not parsed.
  if (run.exitCode !== 0 && run.exitCode !== 3) return [`promtool exited ${run.exitCode}: ${output}`];
  return output.split("\n").map((line) => line.trim()).filter((line) =>
    line !== "" && !DEFAULT_METRICS_FINDINGS.has(line)
  );
}
