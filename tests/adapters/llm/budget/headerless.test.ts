/** @module Tests of headerless.ts: answers stating no limits lift nothing until several in a row. */
import { describe, expect, test } from "bun:test";
import {
  createHeaderlessRule,
  HEADERLESS_ANSWERS_TO_UNPACE,
  NO_STATED_LIMIT,
  PROVISIONAL_LIMITS,
} from "../../../../src/adapters/llm/budget/headerless.ts";
import { KNOWN_MODELS } from "../../../../src/adapters/llm/models/model-table.ts";

const FREE = { tokensPerWindow: 6000, requestsPerWindow: 30 };
const unpaced = {
  tokenLimit: NO_STATED_LIMIT,
  requestLimit: NO_STATED_LIMIT,
  dayTokenLimit: NO_STATED_LIMIT,
  dayRequestLimit: NO_STATED_LIMIT,
};

describe("createHeaderlessRule()", () => {
  test("one answer without figures (a gateway's page) teaches nothing", () => {
    const rule = createHeaderlessRule({ assumed: FREE });
    expect(rule.judge({}, false)).toEqual({ known: false });
  });

  test(`only ${HEADERLESS_ANSWERS_TO_UNPACE} answers in a row without figures unpace the endpoint`, () => {
    const rule = createHeaderlessRule({ assumed: FREE });
    for (let i = 1; i < HEADERLESS_ANSWERS_TO_UNPACE; i++) expect(rule.judge({}, false).learn).toBeUndefined();
    expect(rule.judge({}, false)).toEqual({ learn: unpaced, known: true });
  });

  test("a stated figure between them starts the count again, and is learnt at once", () => {
    const rule = createHeaderlessRule({ assumed: FREE });
    rule.judge({}, false);
    rule.judge({}, false);
    expect(rule.judge({ tokenLimit: 6000, tokensRemaining: 100 }, false)).toEqual({
      learn: { tokenLimit: 6000, tokensRemaining: 100 },
      known: true,
    });
    for (let i = 1; i < HEADERLESS_ANSWERS_TO_UNPACE; i++) expect(rule.judge({}, false).learn).toBeUndefined();
  });

  test("a refusal without figures while unpaced puts the assumed limits back", () => {
    const rule = createHeaderlessRule({ assumed: FREE });
    for (let i = 0; i < HEADERLESS_ANSWERS_TO_UNPACE; i++) rule.judge({}, false);
    expect(rule.judge({}, true).learn).toEqual({ tokenLimit: 6000, requestLimit: 30 });
  });

  test("with the operator's limits (LLM_TOKENS_PER_MINUTE) headerless answers never unpace: those limits stand", () => {
    const rule = createHeaderlessRule({ assumed: FREE, operatorStated: true });
    for (let i = 0; i < 10; i++) expect(rule.judge({}, false)).toEqual({ known: true });
  });
});

describe("PROVISIONAL_LIMITS", () => {
  test("are the smallest per-minute figures of a free plan the model table knows (gpt-oss: 8,000 tokens, 30 requests)", () => {
    const plans = Object.values(KNOWN_MODELS).flatMap((model) => model.freePlan ? [model.freePlan] : []);
    expect(plans.length).toBeGreaterThanOrEqual(2);
    expect(PROVISIONAL_LIMITS).toEqual({
      tokensPerWindow: Math.min(...plans.map((plan) => plan.tokensPerMinute)),
      requestsPerWindow: Math.min(...plans.map((plan) => plan.requestsPerMinute)),
    });
    expect(PROVISIONAL_LIMITS).toEqual({ tokensPerWindow: 8_000, requestsPerWindow: 30 });
  });
});
