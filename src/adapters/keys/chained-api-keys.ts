/** @module Accepts a key that any of several key sources accepts, asking them in order. */
import type { ApiKeys } from "../../domain/ports.ts";

/**
 * Accepts a key any of `sources` accepts, asking them in order: put the
 * cheap local ones (`API_KEYS`) first so they never wait on a store.
 *
 * @param sources key sources, first match wins
 */
export function createChainedApiKeys(sources: readonly ApiKeys[]): ApiKeys {
  return {
    async verify(key) {
      for (const source of sources) {
        const identity = await source.verify(key);
        if (identity) return identity;
      }
      return undefined;
    },
  };
}
