/** @module Decides from the `Accept` header whether a request wants its answer as a stream. */
/**
 * Whether a request asks for the answer as a stream: its `Accept` lists
 * `text/event-stream` with a non-zero quality, and does not prefer JSON
 * (`application/json` with a higher quality). `text/event-stream;q=0` means
 * "not this", as RFC 9110 says; a wildcard alone (any media type) keeps JSON.
 */
export function wantsStream(request: Request): boolean {
  const accept = request.headers.get("accept");
  if (!accept || !/event-stream/i.test(accept)) return false;
  let stream = 0;
  let json = 0;
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = quality(params);
    if (type === "text/event-stream") stream = Math.max(stream, q);
    else if (type === "application/json") json = Math.max(json, q);
  }
  return stream > 0 && stream >= json;
}

function quality(params: readonly string[]): number {
  const q = params.find((param) => param.startsWith("q="));
  if (!q) return 1;
  const value = Number(q.slice(2));
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : 1;
}
