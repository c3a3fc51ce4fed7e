/** @module Parses samples of a Prometheus text exposition and computes their movement between scrapes. */
/**
 * Samples of a Prometheus text exposition, keyed `name{label="value",...}`
 * with labels sorted by name (prom-client prints them in declaration order,
 * `le` first), so a test can name a sample whatever the order.
 *
 * @throws on a line that is neither a comment nor `name[{labels}] value`
 */
export function parseSamples(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a sample line: ${line}`);
    const labels = match[2]
      ? [...match[2].matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => `${m[1]}="${m[2]}"`).sort()
      : [];
    samples.set(`${match[1]}${labels.length ? `{${labels.join(",")}}` : ""}`, Number(match[3]));
  }
  return samples;
}

/**
 * @param labels label values, in any order
 * @returns the sample's key as {@linkcode parseSamples} writes it
 */
export function sampleKey(name: string, labels: Record<string, string> = {}): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).sort();
  return parts.length ? `${name}{${parts.join(",")}}` : name;
}

/** @returns the sample's value; 0 when absent (a counter never incremented) */
export function sample(samples: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  return samples.get(sampleKey(name, labels)) ?? 0;
}

/** @returns by how much each listed sample moved between two scrapes */
export function deltas(
  before: Map<string, number>,
  after: Map<string, number>,
  keys: string[],
): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [key, (after.get(key) ?? 0) - (before.get(key) ?? 0)]));
}
