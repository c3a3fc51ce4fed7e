/** @module The MCP listener of a service under test: its URL from the banner, and the v2 SDK's HTTP client on it. */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { FakeLlm } from "../fake/llm.ts";
import type { RunningService } from "../service/process.ts";

/** The MCP endpoint's URL from the banner (`MCP: http://.../mcp`), waiting for its line. */
export async function mcpUrlOf(service: RunningService, timeoutMs = 5_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let match = /MCP:\s+(http:\/\/\S+)/.exec(service.output());
  while (!match && Date.now() < until) {
    await Bun.sleep(10);
    match = /MCP:\s+(http:\/\/\S+)/.exec(service.output());
  }
  if (!match) throw new Error(`No MCP URL in the banner:\n${service.output()}`);
  return match[1]!;
}

/**
 * The v2 SDK's client connected over Streamable HTTP, as a remote agent connects.
 *
 * @param urls the endpoint, or several (instances behind a load balancer without sticky routing): each HTTP request
 *   goes to the next one in turn
 * @param headers sent with every request (the API key)
 * @param era 2026-07-28 (the client pinned to it: `server/discover`, no handshake) or 2025-11-25 (its default
 *   `initialize` handshake, whose cancellations are `notifications/cancelled`)
 */
export async function connectHttp(
  urls: string | string[],
  headers: Record<string, string>,
  era: "2026-07-28" | "2025-11-25" = "2026-07-28",
): Promise<{ client: Client; sent: string[] }> {
  const targets = Array.isArray(urls) ? urls : [urls];
  const sent: string[] = [];
  let turn = 0;
  const transport = new StreamableHTTPClientTransport(new URL(targets[0]!), {
    requestInit: { headers },
    // A load balancer with no sticky routing: every request to the next instance, whatever the client's session.
    fetch: (_url, init) => {
      const target = targets[turn++ % targets.length]!;
      sent.push(target);
      return fetch(target, init);
    },
  });
  const pinned = era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {};
  const client = new Client({ name: "e2e-remote-agent", version: "1.0.0" }, pinned);
  await client.connect(transport);
  return { client, sent };
}

/** The first text of a tool result. */
export const textOf = (result: object): string => (result as { content: { text: string }[] }).content[0]!.text;

/**
 * Waits until the fake LLM is asked (one call), cancels the tool call with `cancel`, checks that the call fails for
 * its client, and waits until the model's call is closed. A model's call that is never closed fails the expectation.
 */
export async function cancelWhileModelWorks(llm: FakeLlm, call: Promise<unknown>, cancel: () => unknown) {
  const until = Date.now() + 20_000;
  while (llm.calls.length === 0 && Date.now() < until) await Bun.sleep(20);
  if (llm.calls.length !== 1) throw new Error(`The model was asked ${llm.calls.length} times, not once`);
  await cancel();
  const failed = await call.then(() => false, () => true);
  if (!failed) throw new Error("The cancelled call got a result");
  while (llm.calls[0]!.closedAt === undefined && Date.now() < until) await Bun.sleep(20);
  return llm.calls[0]!.closedAt;
}
