/** @module The lines printed once at start-up, the generated key among them. */
/** The lines printed once at start-up. The generated key is shown here and nowhere else. */
export function bannerLines(
  options: {
    url: string;
    backend: string;
    generatedKey?: string;
    runtime: string;
    adminUrl?: string;
    mcpUrl?: string;
    warnings?: string[];
  },
): string[] {
  const lines = [
    `Video Chat Service listening on ${options.url} (${options.runtime})`,
    `  API docs:    ${options.url}/swagger`,
    `  LLM backend: ${options.backend}${
      options.backend === "offline" ? " (no LLM_API_KEY or GROQ_API_KEY: built-in extractive engine, no model)" : ""
    }`,
    ...(options.warnings ?? []).map((warning) => `  ${warning}`),
  ];
  if (options.adminUrl) lines.push(`  Admin:       ${options.adminUrl} (/healthz, /readyz, /metrics)`);
  if (options.mcpUrl) {
    lines.push(`  MCP:         ${options.mcpUrl} (Streamable HTTP; API key in x-api-key or Authorization: Bearer)`);
  }
  if (options.generatedKey) {
    lines.push(
      `  No API_KEYS or issued keys: generated one key for this run, shown once:`,
      `    ${options.generatedKey}`,
    );
  }
  return lines;
}
