/** @module The service's own time on a new question about a cached transcript: latency minus the fake LLM's time. */
import type { FakeLlm } from "../../tests/support/fake/llm.ts";
import { BODY, KEY } from "./cached-load.ts";

const URL_FIELD = (JSON.parse(BODY) as { url: string }).url;
let asked = 0;

/**
 * Asks `count` new questions (never asked before in this process, so never a cached answer) about the bench's video,
 * one after another, and returns each one's own time in ms: its latency at the client minus the time the fake LLM
 * spent on its calls (from a call's arrival to its answer being ready), so a slower fake does not count; and the LLM
 * calls each question made (a revision that makes more pays their round trips in its own time).
 */
export async function ownTimes(port: number, llm: FakeLlm, count: number): Promise<{ times: number[]; calls: number }> {
  const times: number[] = [];
  let callsMade = 0;
  for (let i = 0; i < count; i++) {
    const prompt = `What does the reviewer say about detail number ${++asked} of the keyboard?`;
    const callsBefore = llm.calls.length;
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify({ url: URL_FIELD, prompt }),
    });
    await response.arrayBuffer();
    const latency = performance.now() - started;
    if (response.status !== 200) throw new Error(`new question on port ${port}: ${response.status}`);
    const calls = llm.calls.slice(callsBefore);
    if (calls.length === 0) throw new Error(`new question on port ${port}: no LLM call (a cached answer?)`);
    callsMade += calls.length;
    const fakeMs = calls.reduce((sum, call) => sum + ((call.answeredAt ?? call.startedAt) - call.startedAt), 0);
    times.push(latency - fakeMs);
  }
  return { times, calls: callsMade / count };
}
