/** @module The README's Configuration tables name exactly the variables `loadConfig()` reads. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { loadConfig } from "../../../src/app/config/config.ts";

const README = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const SECTION = /\n## Configuration\n([\s\S]*?)\n## /.exec(README)?.[1] ?? "";

/** Every name `loadConfig()` asks the environment for, with the listeners on so their own settings are read too. */
function variablesRead(): string[] {
  const asked = new Set<string>();
  const set: Record<string, string> = { ADMIN_PORT: "9001", MCP_PORT: "9002", STT: "groq", LLM_API_KEY: "k" };
  const env = new Proxy(set, {
    get(target, name) {
      if (typeof name === "string") asked.add(name);
      return target[name as string];
    },
  });
  loadConfig(env);
  return [...asked].sort();
}

/** The names in the first column of the section's tables (`LLM_API_KEY` (or `GROQ_API_KEY`) counts both). */
function variablesListed(): string[] {
  const rows = SECTION.split("\n").filter((line) => line.startsWith("| `"));
  return rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!)).sort();
}

describe("the README's Configuration", () => {
  test("is grouped by what an operator is doing", () => {
    const groups = [...SECTION.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
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
    expect(SECTION).toContain("`https_proxy` also read");
  });
});
