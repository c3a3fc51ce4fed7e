/** @module The three kinds of agent the MCP server must serve, behind one face: v2 on 2026-07-28, v2 on 2025-11-25, 1.x. */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** Which client, and the protocol revision it must end up on. */
export const AGENTS = [
  { kind: "v2 pinned to 2026-07-28", protocol: "2026-07-28" },
  { kind: "v2 on its default handshake", protocol: "2025-11-25" },
  { kind: "1.x", protocol: "2025-11-25" },
] as const;

export type AgentKind = (typeof AGENTS)[number]["kind"];

/** Where the agent connects: the HTTP endpoint with its headers, or a command to spawn for stdio. */
export type AgentTarget =
  | { url: string; headers: Record<string, string> }
  | { command: string; args: string[]; env: Record<string, string>; cwd: string };

export interface Progress {
  progress: number;
  total?: number;
}

/** What the tests ask of any of the three clients. */
export interface Agent {
  protocolVersion(): string | undefined;
  serverName(): string | undefined;
  /** The server's `server/discover` answer: only a 2026-07-28 client has one. */
  discovered(): { supportedVersions?: string[]; capabilities?: { tools?: object }; instructions?: string } | undefined;
  listTools(): Promise<string[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { onprogress?: (p: Progress) => void; timeout?: number; signal?: AbortSignal },
  ): Promise<{ isError?: boolean; content: unknown; structuredContent?: unknown }>;
  close(): Promise<void>;
}

/** Connects an agent of `kind` to `target`, as a host of that SDK would. */
export async function connectAgent(kind: AgentKind, target: AgentTarget): Promise<Agent> {
  const info = { name: `e2e ${kind}`, version: "1.0.0" };
  if (kind === "1.x") {
    const client = new V1Client(info);
    const transport = "url" in target
      ? new V1HttpTransport(new URL(target.url), { requestInit: { headers: target.headers } })
      : new V1StdioRecordingVersion({ ...target, stderr: "ignore" });
    await client.connect(transport);
    return {
      protocolVersion: () => transport.protocolVersion,
      serverName: () => client.getServerVersion()?.name,
      discovered: () => undefined,
      listTools: async () => (await client.listTools()).tools.map((t) => t.name),
      callTool: (name, args, options = {}) =>
        client.callTool({ name, arguments: args }, undefined, {
          ...options,
          resetTimeoutOnProgress: true,
        }) as ReturnType<Agent["callTool"]>,
      close: () => client.close(),
    };
  }
  const pinned = kind === "v2 pinned to 2026-07-28";
  const client = new Client(info, pinned ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(
    "url" in target
      ? new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers } })
      : new StdioClientTransport({ ...target, stderr: "ignore" }),
  );
  return {
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    serverName: () => client.getServerVersion()?.name,
    discovered: () => client.getDiscoverResult() as ReturnType<Agent["discovered"]>,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    callTool: (name, args, options = {}) =>
      client.callTool({ name, arguments: args }, { ...options, resetTimeoutOnProgress: true }) as ReturnType<
        Agent["callTool"]
      >,
    close: () => client.close(),
  };
}

/** The 1.x client tells its transport the version `initialize` agreed; its stdio transport does not keep it. */
class V1StdioRecordingVersion extends V1StdioClientTransport {
  protocolVersion: string | undefined;
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }
}
