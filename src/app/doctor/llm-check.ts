/** @module The doctor's LLM check: does each model's endpoint list it, and answer one small call with it? */
import Groq from "groq-sdk";
import { endpointName } from "../../adapters/llm/budget/budget-key.ts";
import { type LimitDialect, reportFromHeaders } from "../../adapters/llm/budget/limits-report.ts";
import { createGroqClient } from "../../adapters/llm/calls/groq-client.ts";
import { type ReasoningEffort, reasoningOf } from "../../adapters/llm/models/model-table.ts";
import { readModelListing } from "../../adapters/llm/calls/model-list.ts";
import { unavailableModelAdvice } from "../../adapters/llm/models/model-unavailable.ts";
import { reasoningParams } from "../../adapters/llm/models/reasoning.ts";
import type { Config } from "../config/config.ts";
import type { LlmLink } from "../config/llm-chain.ts";
import type { Cell, CheckResult, DoctorCheck } from "./report.ts";

const COLUMNS = [
  { key: "endpoint", label: "ENDPOINT" },
  { key: "model", label: "MODEL" },
  { key: "listed", label: "LISTED" },
  { key: "context", label: "CONTEXT" },
  { key: "call", label: "CALL" },
  { key: "limits", label: "LIMITS" },
] as const;

const TIMEOUT_MS = 20_000;

/**
 * Asks each model of the chain's endpoint for its models and sends it one small call with that model (the reasoning
 * settings the service sends included). It passes when every model answers its call; without a key, the offline
 * engine answers and there is nothing to ask. Endpoints are named by host and path, never with credentials.
 *
 * @param options.fetch replaces the endpoints' fetch (tests)
 */
export function llmCheck(config: Config, options: { fetch?: typeof fetch } = {}): DoctorCheck {
  return {
    name: "llm",
    async run(): Promise<CheckResult> {
      if (!config.llmApi.apiKey) {
        return result([{
          endpoint: "-",
          model: "offline engine",
          listed: null,
          context: null,
          call: null,
          limits: null,
        }], {
          ok: true,
          summary: "No LLM_API_KEY (or GROQ_API_KEY): the offline engine answers, no model is asked",
          advice: [],
        });
      }
      const checked = await Promise.all(
        config.llmChain.map((link) => checkLink(link, config.llmApi.reasoningEffort, options.fetch)),
      );
      const failed = checked.filter((check) => !check.ok);
      const names = (list: typeof checked) => list.map((check) => `${check.row.model} on ${check.row.endpoint}`);
      return result(checked.map((check) => check.row), {
        ok: failed.length === 0,
        summary: failed.length === 0
          ? `Every model of the chain answers: ${names(checked).join(", ")}`
          : `${failed.length} of ${checked.length} models did not answer: ${
            failed.map((check) => `${check.row.model} (${check.row.call})`).join(", ")
          }`,
        advice: checked.flatMap((check) => check.advice),
      });
    },
  };
}

/** One model of the chain: listed by its endpoint, one small call, the limits (and the day left) it stated. */
async function checkLink(
  link: LlmLink,
  effort: ReasoningEffort,
  fetch: typeof globalThis.fetch | undefined,
): Promise<{ ok: boolean; row: Record<string, Cell>; advice: string[] }> {
  const { apiKey, baseUrl, model, dialect, setting } = link;
  const listing = await readModelListing({ apiKey, baseUrl, model, timeoutMs: TIMEOUT_MS, fetch });
  const client = createGroqClient({ apiKey, baseUrl, timeoutMs: TIMEOUT_MS, fetch });
  const call = await oneCall(client, model, reasoningParams(reasoningOf(model), effort, dialect === "groq"), setting);
  const row: Record<string, Cell> = {
    endpoint: endpointName(baseUrl),
    model,
    listed: listing.listed === undefined ? "unknown" : listing.listed ? "yes" : "no",
    context: listing.listed === true ? listing.contextTokens ?? "not stated" : null,
    call: call.outcome,
    limits: call.headers ? statedLimits(call.headers, dialect) : null,
  };
  const advice = call.ok ? [] : [call.advice];
  if (call.ok && listing.listed === false) advice.push(unavailableModelAdvice(model, setting));
  return { ok: call.ok, row, advice };
}

function result(
  rows: Record<string, Cell>[],
  verdict: { ok: boolean; summary: string; advice: string[] },
): CheckResult {
  return { name: "llm", title: "LLM endpoint", columns: COLUMNS, rows, ...verdict };
}

/** One small call, as the service sends them: how it ended, and the limits its answer stated. */
async function oneCall(
  client: Groq,
  model: string,
  reasoning: object,
  setting: string,
): Promise<{ ok: boolean; outcome: string; headers?: Headers; advice: string }> {
  try {
    const { response } = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "Reply with the single word OK." }],
      max_tokens: 600,
      ...reasoning,
    }).withResponse();
    return { ok: true, outcome: "ok", headers: response.headers, advice: "" };
  } catch (error) {
    if (!(error instanceof Groq.APIError) || error.status === undefined) {
      return { ok: false, outcome: "unreachable", advice: "Check LLM_BASE_URL: the endpoint did not answer" };
    }
    const text = `${error.message}`;
    if (error.status === 404 || /model_not_found|model_decommissioned/.test(text)) {
      return {
        ok: false,
        outcome: `HTTP ${error.status}: model not served`,
        advice: unavailableModelAdvice(model, setting),
      };
    }
    if (error.status === 401 || error.status === 403) {
      return { ok: false, outcome: `HTTP ${error.status}`, advice: "The endpoint refused the key: check LLM_API_KEY" };
    }
    if (error.status === 429) {
      return { ok: false, outcome: "HTTP 429", advice: "The provider's rate limit is spent: wait, or raise the plan" };
    }
    return { ok: false, outcome: `HTTP ${error.status}`, advice: `The endpoint answered HTTP ${error.status}` };
  }
}

/** @returns the limits an answer stated, in a few words (none: an endpoint that states none) */
function statedLimits(headers: Headers, dialect: LimitDialect): string {
  const report = reportFromHeaders(headers, dialect);
  const parts = [
    report.tokenLimit === undefined ? "" : `${report.tokenLimit} tokens/min`,
    report.requestLimit === undefined ? "" : `${report.requestLimit} requests/min`,
    report.dayRequestLimit === undefined ? "" : `${report.dayRequestLimit} requests/day`,
    report.dayRequestsRemaining === undefined ? "" : `${report.dayRequestsRemaining} left today`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "none stated";
}
