/** @module Tests of a caller's view of shared work: nothing before its quota admits it, the length never passed on. */
import { describe, expect, test } from "bun:test";
import { AdmittedListener } from "../../../src/domain/usage/admitted-listener.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { AnswerEvent } from "../../../src/domain/ports.ts";
import { Account } from "../../../src/domain/usage/account.ts";

const DELTA: AnswerEvent = { type: "delta", text: "Hello" };
const WRITING: AnswerEvent = { type: "progress", progress: { stage: "writing" } };

describe("AdmittedListener", () => {
  test("holds every event until the caller's quota holds the length's minutes, then passes them in order", async () => {
    const asked: number[] = [];
    let grant: () => void = () => {};
    const account = new Account({
      admit: (minutes) => (asked.push(minutes), new Promise<void>((resolve) => grant = resolve)),
    });
    const heard: AnswerEvent[] = [];
    const listener = new AdmittedListener(account, (event) => heard.push(event), () => {});
    listener.listen(WRITING);
    listener.listen({ type: "length", videoSeconds: 30 * 60 });
    listener.listen(DELTA);
    await Bun.sleep(0);
    expect(asked).toEqual([30]);
    expect(heard).toEqual([]);
    grant();
    await Bun.sleep(0);
    listener.listen({ type: "delta", text: ", world" });
    expect(heard).toEqual([WRITING, DELTA, { type: "delta", text: ", world" }]);
  });

  test("a refusal is told to refuse, and no event reaches the caller", async () => {
    const refusal = new AppError("quota_exceeded", "spent");
    const account = new Account({ admit: () => Promise.reject(refusal) });
    const heard: AnswerEvent[] = [];
    const refused: unknown[] = [];
    const listener = new AdmittedListener(account, (event) => heard.push(event), (error) => refused.push(error));
    listener.listen({ type: "length", videoSeconds: 30 * 60 });
    listener.listen(DELTA);
    await Bun.sleep(0);
    expect(refused).toEqual([refusal]);
    expect(heard).toEqual([]);
  });

  test("every caller is committed at the length, whatever its quotas: a request-only one before its first delta", async () => {
    const committed: number[] = [];
    const heard: AnswerEvent[] = [];
    const listener = new AdmittedListener(
      new Account({ working: (minutes) => committed.push(minutes) }),
      (event) => heard.push(event),
      () => {},
    );
    listener.listen(WRITING);
    expect(committed).toEqual([]);
    listener.listen({ type: "length", videoSeconds: 5 * 60 });
    expect(committed).toEqual([5]);
    listener.listen(DELTA);
    expect(heard).toEqual([WRITING, DELTA]);
    const admitted: string[] = [];
    const paying = new AdmittedListener(
      new Account({ admit: async () => void admitted.push("admit"), working: () => void admitted.push("working") }),
      () => admitted.push("event"),
      () => {},
    );
    paying.listen({ type: "length", videoSeconds: 60 });
    paying.listen(DELTA);
    await Bun.sleep(0);
    expect(admitted).toEqual(["admit", "working", "event"]);
  });

  test("a caller whose request ended is refused at the length, and reads nothing", () => {
    const ended = new AppError("quota_exceeded", "ended");
    const refused: unknown[] = [];
    const heard: AnswerEvent[] = [];
    const listener = new AdmittedListener(
      new Account({
        working: () => {
          throw ended;
        },
      }),
      (event) => heard.push(event),
      (error) => refused.push(error),
    );
    listener.listen({ type: "length", videoSeconds: 60 });
    expect(refused).toEqual([ended]);
  });

  test("a caller without a quota follows at once; the length is never passed on; nothing after close", () => {
    const heard: AnswerEvent[] = [];
    const listener = new AdmittedListener(new Account(), (event) => heard.push(event), () => {});
    listener.listen({ type: "length", videoSeconds: 5 * 60 });
    listener.listen(DELTA);
    listener.close();
    listener.listen(WRITING);
    expect(heard).toEqual([DELTA]);
  });
});
