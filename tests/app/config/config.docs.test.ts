/** @module The tables of docs/configuration.md name exactly the variables `loadConfig()` reads. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { variablesRead } from "../../support/config/variables.ts";

const PAGE = readFileSync(new URL("../../../docs/configuration.md", import.meta.url), "utf8");

/** The names in the first column of the page's tables (`LLM_API_KEY` (or `GROQ_API_KEY`) counts both). */
function variablesListed(): string[] {
  const rows = PAGE.split("\n").filter((line) => line.startsWith("| `"));
  return rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!)).sort();
}

describe("docs/configuration.md", () => {
  test("is grouped by what an operator is doing", () => {
    const groups = [...PAGE.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(groups).toEqual([
      "Serving",
      "Keys and limits",
      "Usage and quotas",
      "YouTube",
      "The LLM",
      "Speech",
      "MCP",
      "Several instances",
      "Tuning",
    ]);
  });

  test("lists every variable loadConfig() reads, each once, and none it does not read", () => {
    const read = variablesRead().filter((name) => name !== "https_proxy");
    expect(read.length).toBeGreaterThan(50);
    expect(variablesListed()).toEqual(read);
    // The lower-case spelling some tools set is named in HTTPS_PROXY's row.
    expect(variablesRead()).toContain("https_proxy");
    expect(PAGE).toContain("`https_proxy` also read");
  });
});
