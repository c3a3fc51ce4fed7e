/** @module Detects near-duplicate passages by term-set overlap and keeps the best distinct ones. */
/** Term-set overlap above which two passages say the same thing. */
export const NEAR_DUPLICATE_JACCARD = 0.8;

/**
 * Whether two passages are near-identical: the Jaccard index of their term
 * sets (see `terms()`) reaches `threshold`. A transcript that repeats a line
 * at two moments (a catchphrase, a recap) would otherwise be quoted twice.
 *
 * @param a one passage's terms
 * @param b the other's terms
 * @param threshold least overlap counted as a duplicate (0.8 by default)
 * @returns true when the two are near-duplicates; two empty passages are
 */
export function isNearDuplicate(
  a: readonly string[],
  b: readonly string[],
  threshold = NEAR_DUPLICATE_JACCARD,
): boolean {
  return setsOverlap(new Set(a), new Set(b), threshold);
}

/** @returns whether the Jaccard index of two term sets reaches `threshold` (two empty sets are alike) */
function setsOverlap(left: ReadonlySet<string>, right: ReadonlySet<string>, threshold: number): boolean {
  if (left.size === 0 && right.size === 0) return true;
  let shared = 0;
  for (const term of left) if (right.has(term)) shared += 1;
  return shared / (left.size + right.size - shared) >= threshold;
}

/**
 * Indexes of the best items, skipping any near-duplicate of one already kept.
 *
 * @param ranked item indexes, best first
 * @param termsOf each item's terms
 * @param keep how many to keep
 * @returns up to `keep` indexes, best first
 */
export function distinctBest(
  ranked: readonly number[],
  termsOf: (index: number) => readonly string[],
  keep: number,
): number[] {
  const kept: number[] = [];
  // Each item's set is made once: a transcript whose passages all repeat one another is compared all the way down.
  const sets = new Map<number, Set<string>>();
  const setOf = (index: number) => {
    let set = sets.get(index);
    if (!set) sets.set(index, set = new Set(termsOf(index)));
    return set;
  };
  for (const index of ranked) {
    if (kept.length >= keep) break;
    if (kept.some((other) => setsOverlap(setOf(other), setOf(index), NEAR_DUPLICATE_JACCARD))) continue;
    kept.push(index);
  }
  return kept;
}
