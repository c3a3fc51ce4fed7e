/** @module IETF RateLimit header fields for a rate-limit decision. */
import type { RateDecision } from "../../domain/ports.ts";

/** IETF RateLimit header fields for a decision; none for an unlimited key. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  if (decision.limit === undefined) return {};
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(Math.max(0, decision.remaining)),
    "ratelimit-reset": String(Math.max(0, Math.ceil(decision.resetSeconds))),
  };
}
