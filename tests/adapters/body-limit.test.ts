/** @module Tests of `limitBody()` (the cap, declared lengths, cancellation on the signal) and `joinChunks()`. */
import { describe, expect, test } from "bun:test";
import { joinChunks, limitBody } from "../../src/adapters/body-limit.ts";

class TooLarge extends Error {}
const tooLarge = () => new TooLarge("too large");

describe("limitBody()", () => {
  test("passes a body at the cap through unchanged, status and headers kept", async () => {
    const response = limitBody(
      new Response("x".repeat(1000), { status: 201, headers: { "x-kept": "yes" } }),
      1000,
      tooLarge,
    );
    expect([response.status, response.headers.get("x-kept"), await response.text()]).toEqual([
      201,
      "yes",
      "x".repeat(1000),
    ]);
  });

  test("fails a streamed body one byte over the cap with the caller's error", async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("x".repeat(600)));
        controller.enqueue(new TextEncoder().encode("x".repeat(401)));
        controller.close();
      },
    });
    await expect(limitBody(new Response(stream), 1000, tooLarge).text()).rejects.toBeInstanceOf(TooLarge);
  });

  test("fails at once when the declared content-length is over the cap", async () => {
    const response = new Response("small", { headers: { "content-length": "5000000" } });
    await expect(limitBody(response, 1000, tooLarge).json()).rejects.toBeInstanceOf(TooLarge);
  });
});

describe("limitBody() and the request's signal", () => {
  test("cancels the upstream body when the request's signal aborts mid-body (Deno does not, by itself)", async () => {
    let cancelled: unknown;
    const endless = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        await Bun.sleep(5);
        controller.enqueue(new TextEncoder().encode("data: more\n\n"));
      },
      cancel: (reason) => void (cancelled = reason ?? "cancelled"),
    });
    const abort = new AbortController();
    const reader = limitBody(new Response(endless), 1_000_000, tooLarge, abort.signal).body!.getReader();
    await reader.read();
    abort.abort(new Error("caller left"));
    await Bun.sleep(20);
    expect(String(cancelled)).toContain("caller left");
  });

  test("once the body is read, its abort listener is removed and onEnd is called once: a long-lived signal keeps no finished body", async () => {
    const controller = new AbortController();
    const removed: string[] = [];
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.removeEventListener = (
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: EventListenerOptions | boolean,
    ) => {
      removed.push(type);
      remove(type, listener, options);
    };
    let ends = 0;
    const limited = limitBody(
      new Response("hello"),
      100,
      () => new Error("too large"),
      controller.signal,
      () => ends++,
    );
    expect(await limited.text()).toBe("hello");
    expect(removed).toEqual(["abort"]);
    expect(ends).toBe(1);
    controller.abort();
    expect(ends).toBe(1);
  });
});

describe("joinChunks()", () => {
  test("joins chunks in order, hands back a lone chunk as it is, and makes an empty array of none", () => {
    const one = new Uint8Array([1, 2]);
    expect(joinChunks([one, new Uint8Array([3]), new Uint8Array([4, 5])], 5)).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
    expect(joinChunks([one], 2)).toBe(one);
    expect(joinChunks([], 0)).toEqual(new Uint8Array(0));
  });
});
