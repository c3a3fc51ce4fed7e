/** @module Response bodies that misbehave on the wire: cut mid-way, trickling, or padded past any sane size. */
/**
 * Response bodies that misbehave on the wire, shared by the loopback fakes:
 * a body cut off mid-way, one that trickles in, one padded far past any
 * sane size. Each ends on its own (bounded), even if the client never reads.
 */

const encoder = new TextEncoder();

/** @returns a stream that sends `prefix`, then fails, so the client sees the connection drop mid-body */
export function resetMidBody(prefix: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(prefix));
      controller.error(new Error("connection reset by the fake (an intended fault, logged by Bun.serve)"));
    },
  });
}

/**
 * @param text the whole body
 * @param totalMs how long sending it takes: about 40 equal pieces, evenly spaced
 * @returns a stream that sends `text` slowly, after the headers went out at once
 */
export function trickle(text: string, totalMs: number): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  const pieces = Math.min(40, Math.max(1, bytes.byteLength));
  const size = Math.ceil(bytes.byteLength / pieces);
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= bytes.byteLength) return controller.close();
      await Bun.sleep(totalMs / pieces);
      controller.enqueue(bytes.subarray(sent, sent + size));
      sent += size;
    },
  });
}

const PAD_CHUNK = encoder.encode(" ".repeat(64 * 1024));

/**
 * @param text the body proper
 * @param padBytes how many bytes of trailing whitespace follow it (JSON, XML and HTML all allow it)
 * @returns a stream of `text` then the padding, in 64 KiB pieces
 */
export function padded(text: string, padBytes: number): ReadableStream<Uint8Array> {
  let left = padBytes;
  let first = true;
  return new ReadableStream({
    pull(controller) {
      if (first) {
        first = false;
        return controller.enqueue(encoder.encode(text));
      }
      if (left <= 0) return controller.close();
      const piece = left >= PAD_CHUNK.byteLength ? PAD_CHUNK : PAD_CHUNK.subarray(0, left);
      left -= piece.byteLength;
      controller.enqueue(piece);
    },
  });
}
