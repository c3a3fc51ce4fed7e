/** @module Tests of the chain of models: the next model serves when one cannot, the soonest refusal when none can. */
import { describe, expect, test } from "bun:test";
import { createChainAnswerWriter } from "../../../src/adapters/llm/chain-answer-writer.ts";
import { modelUnavailable } from "../../../src/adapters/llm/models/model-unavailable.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { AnswerEvents, AnswerSpec, AnswerWriter } from "../../../src/domain/ports.ts";
import { sampleTranscript } from "../../support/fake/ports.ts";

/** A model's writer that answers, or refuses as its budget or endpoint would, counting what it was asked. */
function model(id: string, behave: (spec: AnswerSpec) => string | Error) {
  const writer = {
    name: `groq:${id}`,
    asked: 0,
    async write(spec: AnswerSpec) {
      writer.asked++;
      const outcome = behave(spec);
      if (outcome instanceof Error) throw outcome;
      return { text: outcome, usage: { calls: 1, inputTokens: 10, outputTokens: 5, model: id } };
    },
  } satisfies AnswerWriter & { asked: number };
  return writer;
}

const spec = (events?: AnswerEvents): AnswerSpec => ({
  transcript: sampleTranscript(),
  prompt: "summary",
  intent: "summary",
  language: "en",
  outputFormat: "text",
  events,
});
const daySpent = (seconds: number) => new AppError("upstream_blocked", "day spent", { retryAfterSeconds: seconds });
const windowShort = (seconds: number) => new AppError("overloaded", "window short", { retryAfterSeconds: seconds });

describe("createChainAnswerWriter()", () => {
  test("a model whose day is spent hands the request to the next, which is named with the answer", async () => {
    const a = model("a", () => daySpent(3600));
    const b = model("b", () => "from b");
    const chain = createChainAnswerWriter([{ model: "a", writer: a }, { model: "b", writer: b }]);
    const answer = await chain.write(spec());
    expect(answer.text).toBe("from b");
    expect(answer.usage?.model).toBe("b");
    expect(chain.name).toBe("groq:a > groq:b");
  });

  test("a retired model is asked once, then never again; the warning is told once", async () => {
    const a = model("a", () => modelUnavailable("a", "LLM_MODELS"));
    const b = model("b", () => "from b");
    const retired: string[] = [];
    const chain = createChainAnswerWriter([{ model: "a", writer: a }, { model: "b", writer: b }], {
      retired: (id) => retired.push(id),
    });
    await chain.write(spec());
    await chain.write(spec());
    expect([a.asked, b.asked, retired]).toEqual([1, 2, ["a"]]);
  });

  test("the same model id retired on one endpoint is still asked on the other", async () => {
    const groq = model("m", () => modelUnavailable("m", "LLM_MODELS"));
    const router = model("m", () => "from the second endpoint");
    const chain = createChainAnswerWriter([{ model: "m", writer: groq }, { model: "m", writer: router }]);
    await chain.write(spec());
    expect((await chain.write(spec())).text).toBe("from the second endpoint");
    expect([groq.asked, router.asked]).toEqual([1, 2]);
  });

  test("every model refusing: the refusal that may be retried soonest, its code and Retry-After kept", async () => {
    const chain = createChainAnswerWriter([
      { model: "a", writer: model("a", () => daySpent(3600)) },
      { model: "b", writer: model("b", () => daySpent(900)) },
      { model: "c", writer: model("c", () => modelUnavailable("c")) },
    ]);
    const error = await chain.write(spec()).catch((e) => e);
    expect([error.code, error.retryAfterSeconds]).toEqual(["upstream_blocked", 900]);
  });

  test("a window too short on the primary moves on too; a failure of another kind does not", async () => {
    const b = model("b", () => "from b");
    const short = createChainAnswerWriter([{ model: "a", writer: model("a", () => windowShort(20)) }, {
      model: "b",
      writer: b,
    }]);
    expect((await short.write(spec())).text).toBe("from b");
    const failing = createChainAnswerWriter([
      { model: "a", writer: model("a", () => new AppError("upstream_timeout", "slow")) },
      { model: "b", writer: b },
    ]);
    expect((await failing.write(spec()).catch((e) => e)).code).toBe("upstream_timeout");
    expect(b.asked).toBe(1);
  });

  test("once a piece of a streamed answer went out, no other model writes it", async () => {
    const a: AnswerWriter = {
      name: "groq:a",
      write(s) {
        s.events!.delta("Half an ans");
        return Promise.reject(daySpent(60));
      },
    };
    const b = model("b", () => "from b");
    const sent: string[] = [];
    const chain = createChainAnswerWriter([{ model: "a", writer: a }, { model: "b", writer: b }]);
    const error = await chain.write(spec({ progress() {}, delta: (text) => sent.push(text) })).catch((e) => e);
    expect([error.code, sent, b.asked]).toEqual(["upstream_blocked", ["Half an ans"], 0]);
  });

  test("a model held back (its day spent, a 429's block) is tried after the models that may send now", async () => {
    const a = model("a", () => "from a");
    const b = model("b", () => "from b");
    let aWaits = 90_000;
    const chain = createChainAnswerWriter([
      { model: "a", writer: a, waitMs: () => Promise.resolve(aWaits) },
      { model: "b", writer: b, waitMs: () => Promise.resolve(0) },
    ]);
    expect((await chain.write(spec())).usage?.model).toBe("b");
    aWaits = 0;
    expect((await chain.write(spec())).usage?.model).toBe("a");
    expect([a.asked, b.asked]).toEqual([1, 1]);
  });

  test("every model held back: the soonest is tried first; a budget that cannot be read counts as ready", async () => {
    const a = model("a", () => "from a");
    const b = model("b", () => "from b");
    const held = createChainAnswerWriter([
      { model: "a", writer: a, waitMs: () => Promise.resolve(5_000) },
      { model: "b", writer: b, waitMs: () => Promise.resolve(1_000) },
    ]);
    expect((await held.write(spec())).usage?.model).toBe("b");
    const unread = createChainAnswerWriter([
      { model: "a", writer: a, waitMs: () => Promise.resolve(5_000) },
      { model: "b", writer: b, waitMs: () => Promise.reject(new Error("Redis unreachable")) },
    ]);
    expect((await unread.write(spec())).usage?.model).toBe("b");
  });

  test("one model is its own writer, unwrapped", () => {
    const a = model("a", () => "x");
    expect(createChainAnswerWriter([{ model: "a", writer: a }])).toBe(a);
  });
});
