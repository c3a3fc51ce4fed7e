/** @module Tests of the command line: each subcommand reaches its command, none starts the service, others exit 2. */
import { afterEach, beforeEach, describe, expect, type Mock, spyOn, test } from "bun:test";
import { KEYS_USAGE } from "../../../src/app/keys-cli.ts";
import { runCli } from "../../../src/app/start/cli.ts";
import { fakeRuntime } from "../../support/fake/runtime.ts";

/** The fake start-up runtime with arguments; stdio is never asked for outside MCP mode. */
function cliRuntime(args: string[], env: Record<string, string> = {}) {
  const fake = fakeRuntime(env, {});
  const stdio = () => {
    throw new Error("stdio asked for outside MCP mode");
  };
  return { ...fake, cli: { ...fake.runtime, args, stdio } };
}

/** What the command line printed on stderr (it prints through the console, as the entry points did). */
let stderr: Mock<(line: string) => void>;
beforeEach(() => {
  stderr = spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => stderr.mockRestore());
const printed = () => stderr.mock.calls.map((call) => call[0]).join("\n");

describe("runCli()", () => {
  test("an unknown subcommand is named on stderr and exits 2", async () => {
    await expect(runCli(cliRuntime(["serve"]).cli)).rejects.toThrow("exit 2");
    expect(printed()).toBe('Unknown subcommand "serve": use keys, doctor or mcp, or none to serve');
  });

  test("`keys help` runs the keys command, which prints its usage on stderr and exits with its code", async () => {
    await expect(runCli(cliRuntime(["keys", "help"]).cli)).rejects.toThrow("exit 2");
    expect(printed()).toContain(KEYS_USAGE[0]!);
  });

  test("no subcommand starts the service: bad settings exit 2 before serving", async () => {
    const fake = cliRuntime([], { PORT: "x" });
    await expect(runCli(fake.cli)).rejects.toThrow("exit 2");
    expect(printed()).toContain("PORT must be");
    expect(fake.served.size).toBe(0);
  });

  test("a test setting out of range exits 2 with its message before serving, as a bad setting does", async () => {
    const fake = cliRuntime([], { TEST_LLM_BUDGET_WINDOW_MS: "5" });
    await expect(runCli(fake.cli)).rejects.toThrow("exit 2");
    expect(printed()).toContain("TEST_LLM_BUDGET_WINDOW_MS");
    expect(fake.served.size).toBe(0);
  });
});
