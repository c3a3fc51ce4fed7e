/** @module Okapi BM25 ranking over a transcript's passages, hand-written. */
/**
 * Okapi BM25 ranking over small in-memory collections (a transcript's
 * passages). Hand-written rather than a dependency: it is thirty lines, the
 * collections are at most a few thousand passages, and the libraries on npm
 * are either unmaintained or bring a whole search engine.
 */
export interface Bm25 {
  /** Number of documents. */
  readonly size: number;
  /** @returns how many documents hold `term` */
  documentFrequency(term: string): number;
  /** @returns one score per document, in document order; 0 when no query term occurs */
  scores(query: readonly string[]): number[];
}

/**
 * @param documents each document's terms (see `terms()`)
 * @param options k1 (term-frequency saturation, 1.2) and b (length normalisation, 0.75)
 * @returns the index
 */
export function createBm25(documents: readonly (readonly string[])[], options: { k1?: number; b?: number } = {}): Bm25 {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const frequencies = documents.map(countTerms);
  const df = new Map<string, number>();
  for (const counts of frequencies) for (const term of counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = documents.length;
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  // Lucene's IDF: never negative, so very common terms weigh little but never subtract.
  const idf = (term: string) => Math.log(1 + (n - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5));

  return {
    size: n,
    documentFrequency: (term) => df.get(term) ?? 0,
    scores(query) {
      const unique = [...new Set(query)].filter((term) => df.has(term));
      return frequencies.map((counts, index) => {
        const norm = k1 * (1 - b + (b * documents[index]!.length) / (averageLength || 1));
        let score = 0;
        for (const term of unique) {
          const tf = counts.get(term) ?? 0;
          if (tf > 0) score += (idf(term) * tf * (k1 + 1)) / (tf + norm);
        }
        return score;
      });
    },
  };
}

function countTerms(document: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of document) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
