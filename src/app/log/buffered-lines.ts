/** @module Buffers log lines and writes them together once per timer turn. */
/**
 * Collects log lines and hands them to `write` together, once per timer turn:
 * under load one write call (one system call) carries the lines of every
 * request answered in that turn, instead of one call per line. Lines wait at
 * most one timer turn, and never more than `maxPending` of them.
 *
 * @param write receives several lines joined by "\n" (no trailing newline)
 * @returns `line` to queue a line, and `flush` to write what is queued now (before exiting)
 */
export function createBufferedLines(write: (text: string) => void, options: { maxPending?: number } = {}) {
  const maxPending = options.maxPending ?? 1_000;
  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join("\n");
    pending = [];
    write(text);
  };
  return {
    line(text: string): void {
      const count = pending.push(text);
      if (count >= maxPending) flush();
      else if (count === 1) timer = setTimeout(flush, 0);
    },
    flush,
  };
}
