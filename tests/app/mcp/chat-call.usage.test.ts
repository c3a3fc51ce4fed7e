/** @module Tests of chat-call.ts with usage metering: counted under its caller, quota refusals as tool errors. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteUsageStore } from "../../../src/adapters/usage/sqlite-usage-store.ts";
import { createUsageMeter } from "../../../src/adapters/usage/usage-meter.ts";
import { silentLogger } from "../../../src/app/log/logger.ts";
import { callChatTool, type ChatCallDeps, MCP_IDENTITY } from "../../../src/app/mcp/chat-call.ts";
import type { Quota } from "../../../src/domain/usage/quota.ts";
import { chatWithFakes, CountingLimiter } from "../../support/fake/ports.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-mcp-usage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const URL = "https://www.youtube.com/watch?v=GJLlxj_dtq8";
const NOW = Date.UTC(2026, 10, 14, 23);

let files = 0;
function setUp(quotas: Quota[]) {
  const { chat, writer } = chatWithFakes();
  const store = createSqliteUsageStore({ path: join(dir, `usage-${++files}.sqlite`) });
  const usage = createUsageMeter({ store, quotasFor: () => quotas, defaultTimeoutMs: 5_000, now: () => NOW });
  const deps: ChatCallDeps = {
    chat,
    rateLimiter: new CountingLimiter(100),
    usage,
    logger: silentLogger,
    maxArgumentBytes: 16_384,
    requestTimeoutMs: 5_000,
    progressTimeoutMs: 9_000,
  };
  const ledger = async (keyId: string) => {
    await usage.flush();
    return (await store.read(["2026-11"], NOW)).find((row) => row.keyId === keyId)?.counts;
  };
  return { deps, writer, ledger };
}

describe("callChatTool with usage metering", () => {
  test("a call is counted under mcp:stdio (QUOTA applies to it); once spent, quota_exceeded as a tool error", async () => {
    const { deps, ledger } = setUp([{ limit: 5, unit: "min", period: "day" }]);
    expect((await callChatTool(deps, { url: URL })).isError).toBeUndefined();
    const refused = await callChatTool(deps, { url: URL, prompt: "more" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toStartWith("quota_exceeded: This API key has spent its quota of 5 video minutes");
    expect(refused.content[0]!.text).toEndWith("Retry after 3600 seconds.");
    expect(await ledger(MCP_IDENTITY.id)).toMatchObject({ requests: 1, minutes: 5, refused: { quota_exceeded: 1 } });
  });

  test("another transport's caller (an API key) is counted under its own id; a refused call costs nothing", async () => {
    const { deps, writer, ledger } = setUp([{ limit: 3, unit: "min", period: "day" }]);
    const caller = { id: "key_http_mcp", name: "agent" };
    const tooLong = await callChatTool(deps, { url: URL }, { caller });
    expect(tooLong.content[0]!.text).toStartWith("quota_exceeded: The video is charged 5 minutes");
    expect(writer.specs).toHaveLength(0);
    expect((await callChatTool(deps, { url: "https://example.com" }, { caller })).isError).toBe(true);
    expect(await ledger("key_http_mcp")).toMatchObject({
      requests: 0,
      minutes: 0,
      refused: { quota_exceeded: 1, invalid_request: 1 },
    });
    expect(await ledger(MCP_IDENTITY.id)).toBeUndefined();
  });
});
