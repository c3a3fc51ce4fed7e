/** @module Tests of a followed response body: passed on unchanged, its end told once it is read or cancelled. */
import { describe, expect, test } from "bun:test";
import { following } from "../../../src/app/mcp/followed-stream.ts";

const source = (chunks: string[], onCancel?: (reason: unknown) => void) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
    },
    cancel: onCancel,
  });

describe("following()", () => {
  test("passes the chunks on unchanged, and tells no end while the source is open", async () => {
    let ended = 0;
    const reader = following(source(["event: message\n", "data: {}\n\n"]), () => ended++).getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe("event: message\n");
    expect(decoder.decode((await reader.read()).value)).toBe("data: {}\n\n");
    expect(await Promise.race([reader.read().then(() => "read"), Bun.sleep(30).then(() => "open")])).toBe("open");
    expect(ended).toBe(0);
  });

  test("tells the end when the source closes, and when the client cancels (the source is cancelled too)", async () => {
    let ended = 0;
    const closing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
        controller.close();
      },
    });
    expect(await new Response(following(closing, () => ended++)).text()).toBe("data: 1\n\n");
    expect(ended).toBe(1);
    let cancelled: unknown;
    const open = following(source(["data: 2\n\n"], (reason) => (cancelled = reason)), () => ended++);
    const reader = open.getReader();
    await reader.read();
    await reader.cancel("client gone");
    expect(ended).toBe(2);
    expect(cancelled).toBe("client gone");
  });
});
