/** @module Deno's heap through the V8 inspector: a full GC, then an evaluated expression. */

/** A connection to one inspector target, sending CDP commands in turn. */
export async function connectInspector(
  port: number,
): Promise<{ evaluate(expression: string): Promise<unknown>; gc(): Promise<void>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  };
  const send = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async evaluate(expression) {
      const result = (await send("Runtime.evaluate", { expression, returnByValue: true })) as {
        result?: { value?: unknown };
      };
      return result.result?.value;
    },
    async gc() {
      await send("HeapProfiler.collectGarbage");
    },
    close: () => socket.close(),
  };
}
