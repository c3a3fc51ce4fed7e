/**
 * @param child a counter's child for one set of label values
 * @returns the child, exposed at 0 from the start: prom-client shows a child only once it has a value,
 *   and a series that appears late breaks `rate()` and ratios over its first minutes
 */
export function zeroed<C extends { inc(value?: number): void }>(child: C): C {
  child.inc(0);
  return child;
}

/** @returns one value per key, each made once (label children bound ahead of the hot path) */
export function bind<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}
