/** @module Tests that docs/operating.md's metrics section names the real metrics and its rules pass `promtool`. */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "bun";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPrometheusMetrics } from "../../../src/app/metrics/prometheus-metrics.ts";
import { ROOT } from "../../support/service/process.ts";

const page = readFileSync(`${ROOT}docs/operating.md`, "utf8");
const SECTION = "\n## Health, metrics and alerts\n";
const operating = page.slice(page.indexOf(SECTION), page.indexOf("\n## ", page.indexOf(SECTION) + SECTION.length));

/** Runs `promtool check rules` on a rules file; throws when promtool is missing. */
function checkRules(yaml: string): { code: number; output: string } {
  const promtool = Bun.which("promtool");
  if (!promtool) {
    throw new Error("promtool is missing: run scripts/install-system-deps.sh (Debian: apt-get install prometheus)");
  }
  const dir = mkdtempSync(join(tmpdir(), "vcs-rules-"));
  try {
    writeFileSync(join(dir, "rules.yml"), yaml);
    const run = spawnSync([promtool, "check", "rules", join(dir, "rules.yml")], { stdout: "pipe", stderr: "pipe" });
    return { code: run.exitCode, output: run.stdout.toString() + run.stderr.toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("docs/operating.md's Health, metrics and alerts", () => {
  test("its metrics table names exactly the service's metrics", async () => {
    expect(page.indexOf(SECTION)).toBeGreaterThan(0);
    const documented = [...operating.matchAll(/^\| `(vcs_\w+)` \|/gm)].map((m) => m[1]!).sort();
    const metrics = createPrometheusMetrics({ defaultMetrics: false });
    metrics.redisAvailability(true);
    const exposed = [...(await metrics.render()).matchAll(/^# TYPE (vcs_\w+) /gm)].map((m) => m[1]!).sort();
    expect(documented).toEqual(exposed);
  });

  test("its alert rules and PromQL queries pass `promtool check rules`, and name only metrics that exist", async () => {
    const rules = /```yaml\n(groups:[\s\S]*?)```/.exec(operating)?.[1];
    expect(rules).toBeDefined();
    const queries = /```promql\n([\s\S]*?)```/.exec(operating)![1]!.split("\n").filter((line) =>
      line.trim() !== "" && !line.startsWith("#")
    );
    expect(queries.length).toBeGreaterThanOrEqual(3);
    const recorded = queries.map((query, i) =>
      `      - record: readme:query${i}\n        expr: ${JSON.stringify(query)}`
    ).join("\n");
    const checked = checkRules(`${rules}  - name: readme-queries\n    rules:\n${recorded}\n`);
    expect(checked.output).toContain("SUCCESS");
    expect(checked.code).toBe(0);
    const exposed = await createPrometheusMetrics({ defaultMetrics: false }).render();
    for (const name of new Set([...`${rules}\n${queries.join("\n")}`.matchAll(/\b(vcs_\w+)/g)].map((m) => m[1]!))) {
      expect(exposed).toContain(`# TYPE ${name} `);
    }
  });

  test("the rules check can fail: a broken expression is refused", () => {
    const broken = checkRules(
      "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: sum(rate(vcs_http_requests_total[5m])\n",
    );
    expect(broken.code).not.toBe(0);
  });
});
