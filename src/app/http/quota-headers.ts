/** @module Quota header fields for an answer to a key with a quota, in the manner of the RateLimit ones. */
import type { QuotaState } from "../../domain/usage/meter.ts";
import { formatQuota } from "../config/quota-spec.ts";

/**
 * The quota closest to spent (this request included): its limit, what is left, the seconds until its UTC day or
 * month renews, and the quota they describe (`Quota-Policy: 10min/day`); none for a key without a quota.
 */
export function quotaHeaders(state: QuotaState | undefined): Record<string, string> {
  if (!state) return {};
  return {
    "quota-limit": String(state.quota.limit),
    "quota-remaining": String(state.remaining),
    "quota-reset": String(Math.ceil(state.resetSeconds)),
    "quota-policy": formatQuota(state.quota),
  };
}
