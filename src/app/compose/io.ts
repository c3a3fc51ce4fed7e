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
}
