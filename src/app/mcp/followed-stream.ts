/** @module A response body passed on as it is, telling once it has ended: sent in full, or cancelled. */
/** The body of an event stream, telling `ended` once it has ended: sent in full, or cancelled by the client. */
export function following(body: ReadableStream<Uint8Array>, ended: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (!next.done) return controller.enqueue(next.value);
        ended();
        controller.close();
      } catch (error) {
        ended();
        controller.error(error);
      }
    },
    async cancel(reason) {
      ended();
      await reader.cancel(reason).catch(() => {});
    },
  });
}
