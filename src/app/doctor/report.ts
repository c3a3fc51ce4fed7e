/** @module The doctor's report: checks, each a table of rows and a verdict with advice, printed or as JSON. */

/** One cell of a check's table. */
export type Cell = string | number | null;

/** What one check found: a table, whether it passed, and what to change when it did not. */
export interface CheckResult {
  /** Stable name, for scripts (`youtube`). */
  name: string;
  /** A line for people, e.g. `YouTube: video GJLlxj_dtq8 through 2 routes with 3 clients`. */
  title: string;
  /** The table's columns: each row's key and its heading. */
  columns: readonly { key: string; label: string }[];
  rows: Record<string, Cell>[];
  ok: boolean;
  /** The verdict in one line. */
  summary: string;
  /** What to change, one line each (never credentials). */
  advice: string[];
}

/** One section of the doctor's report: YouTube today; more can be added beside it (the LLM endpoint, ...). */
export interface DoctorCheck {
  name: string;
  run(): Promise<CheckResult>;
}

/** Every check's result; `ok` when every check passed. */
export interface DoctorReport {
  ok: boolean;
  checks: CheckResult[];
}

/**
 * @param checks the sections to run, in order (they run one after another: each may send many requests)
 * @returns the report
 */
export async function runChecks(checks: readonly DoctorCheck[]): Promise<DoctorReport> {
  const results: CheckResult[] = [];
  for (const check of checks) results.push(await check.run());
  return { ok: results.every((r) => r.ok), checks: results };
}

/** @returns the report as lines for a terminal: per check its title, table, verdict and advice */
export function renderText(report: DoctorReport): string[] {
  const lines: string[] = [];
  for (const check of report.checks) {
    if (lines.length > 0) lines.push("");
    lines.push(check.title, "");
    const header = check.columns.map((c) => c.label);
    const body = check.rows.map((row) => check.columns.map((c) => String(row[c.key] ?? "-")));
    const widths = header.map((_, i) => Math.max(...[header, ...body].map((cells) => cells[i]!.length)));
    for (const cells of [header, ...body]) {
      lines.push(cells.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd());
    }
    lines.push("", `${check.ok ? "OK" : "FAIL"}: ${check.summary}`);
    for (const line of check.advice) lines.push(`  - ${line}`);
  }
  return lines;
}

/** @returns the report as one JSON document: `{ok, checks: [{name, title, ok, summary, advice, rows}]}` */
export function renderJson(report: DoctorReport): string {
  return JSON.stringify({
    ok: report.ok,
    checks: report.checks.map(({ columns: _, ...check }) => check),
  });
}
