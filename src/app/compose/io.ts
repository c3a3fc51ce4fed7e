/** @module The outside world the adapters are built with, one type every compose file imports (no circle). */
import type { Logger } from "../log/logger.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";

/** The outside world the adapters are built with; `metrics` only when `ADMIN_PORT` is set. */
export interface ServiceIo {
  logger: Logger;
  /** Replaces every upstream `fetch` (YouTube routes, the LLM, speech) in tests. */
  fetch?: typeof fetch;
  metrics?: ServiceMetrics;
  /** The provider's minute in the LLM budget; tests shorten it (`TestSettings`), a real minute unset. */
  llmBudgetWindowMs?: number;
  /**
   * Told when the usage store stops taking the holds and counts of callers with quotas (false), and when it takes
   * them again (true): readiness then says `usage_store_unavailable`.
   */
  onUsageAvailability?: (available: boolean) => void;
}
