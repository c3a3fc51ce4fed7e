/** @module Waits for and returns the request-log lines the service printed for a response. */
import type { RunningService } from "./service/process.ts";

/** One JSON log line, as the service printed it. */
export type LogLine = Record<string, unknown>;

/**
 * The request-log lines of a response, waiting for them: lines are written a
 * timer turn after the response, several at a time.
 *
 * @returns every `request` line whose request_id is the response's x-request-id (none after 5 s)
 */
export async function requestLogLines(service: RunningService, response: Response): Promise<LogLine[]> {
  const id = response.headers.get("x-request-id");
  const find = (): LogLine[] =>
    service
      .output()
      .split("\n")
      .filter((text) => text.startsWith("{"))
      .map((text) => JSON.parse(text) as LogLine)
      .filter((line) => line.event === "request" && line.request_id === id);
  const deadline = Date.now() + 5_000;
  while (find().length === 0 && Date.now() < deadline) await Bun.sleep(10);
  return find();
}
