/** @module Bodies read in chunks: a cap on an upstream's, releasing the connection past it, and the chunks joined. */
/**
 * Caps how much of an upstream's response body is read, so that a broken or
 * hostile upstream cannot make the service hold an unbounded body in memory.
 * Reading stops (and the connection is released) as soon as the cap is passed.
 *
 * @param response the upstream's response, body unread
 * @param maxBytes the most bytes the body may have
 * @param tooLarge makes the error a read fails with once the body is over the cap
 * @param signal the request's: when it aborts, the body is cancelled (and its connection closed)
 * @param onEnd called once when the body ends (read to its end, failed or cancelled)
 * @returns the same response whose body fails with `tooLarge()` past `maxBytes`
 */
export function limitBody(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
  signal?: AbortSignal | null,
  onEnd?: () => void,
): Response {
  const source = response.body;
  if (!source) {
    onEnd?.();
    return response;
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const reader = source.getReader();
  let read = 0;
  let wrapper: ReadableStreamDefaultController<Uint8Array> | undefined;
  const limited = new ReadableStream<Uint8Array>({
    start(controller) {
      wrapper = controller;
    },
    async pull(controller) {
      if (declared > maxBytes) return fail(controller);
      try {
        const { done, value } = await reader.read();
        if (signal?.aborted) return;
        if (done) {
          end();
          return controller.close();
        }
        read += value.byteLength;
        if (read > maxBytes) return fail(controller);
        controller.enqueue(value);
      } catch (error) {
        end();
        throw error;
      }
    },
    cancel: (reason) => {
      end();
      return reader.cancel(reason);
    },
  });
  // Deno does not end a body being read when its request's signal aborts after the headers:
  // fail the read with the signal's reason (a timeout stays a timeout) and cancel the source.
  const onAbort = (): void => {
    end();
    try {
      wrapper?.error(signal!.reason);
    } catch {
      // Already closed or errored.
    }
    void reader.cancel(signal!.reason).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  // The listener holds the body: removed once it ends, so a long-lived signal keeps no finished body.
  let ended = false;
  function end(): void {
    if (ended) return;
    ended = true;
    signal?.removeEventListener("abort", onAbort);
    onEnd?.();
  }
  async function fail(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    end();
    controller.error(tooLarge());
    await reader.cancel().catch(() => {});
  }
  return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** @returns `bytes` in whole MiB for messages, e.g. `10 MiB` */
export function mebibytes(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}

/**
 * Joins the chunks of a body read piece by piece.
 *
 * @param chunks the chunks, in order
 * @param length their total length in bytes
 * @returns one array of the bytes: the only chunk itself when there is one, else a copy
 */
export function joinChunks(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.byteLength === length) return chunks[0]!;
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}
