/** @module TextRank centrality scores of documents, for picking a transcript's most central lines. */
/**
 * TextRank (Mihalcea & Tarau, 2004): documents are nodes of a graph whose
 * edges weigh the words two documents share, normalised by their lengths;
 * PageRank on that graph scores how central each document is.
 *
 * Terms found in more than a fifth of the documents carry no edge: they are
 * the language's function words, whatever the language, and would otherwise
 * link everything to everything. A term found in many documents links each
 * to its nearest neighbours holding it only (see `similarityGraph`), so the
 * time grows with the text, not with its square: captions are the
 * uploader's text, and could be written to share words on purpose.
 *
 * @param documents each document's terms (see `terms()`)
 * @param options PageRank damping (0.85), iteration cap (50), convergence tolerance (1e-6)
 * @returns one centrality score per document; they sum to 1
 */
export function centrality(
  documents: readonly (readonly string[])[],
  options: { damping?: number; iterations?: number; tolerance?: number } = {},
): number[] {
  const n = documents.length;
  if (n === 0) return [];
  return pageRank(
    similarityGraph(documents),
    options.damping ?? 0.85,
    options.iterations ?? 50,
    options.tolerance ?? 1e-6,
  );
}

/** The graph in compressed rows: row i's neighbours are `columns[rows[i]..rows[i+1]]`, with their `weights`. */
interface Graph {
  rows: Int32Array;
  columns: Int32Array;
  weights: Float64Array;
}

/**
 * Most pairs of documents the graph is built from (a pair counted once per word it shares): bounds the time a
 * crafted transcript can take (each pair costs a few additions, and its edge a few per PageRank round).
 */
export const MAX_PAIRS = 250_000;

/**
 * Weights of the documents' shared words, by rows. Each word links every document holding it to the `window`
 * documents on either side of it among those holding the word: all of them while the pairs stay within
 * {@link MAX_PAIRS} (a normal transcript's coarse lines: the graph of the paper), else the widest window that keeps
 * within it, so the pairs grow with the postings, not with their square. A windowed word's links weigh more, so that
 * each document's share of it is what all its links would give (a sample of the word's documents, not a cut).
 */
function similarityGraph(documents: readonly (readonly string[])[]): Graph {
  const n = documents.length;
  const { postings, slots } = indexTerms(documents);
  const maxDf = Math.max(10, Math.floor(n / 5));
  const linked = (list: readonly number[]) => list.length >= 2 && list.length <= maxDf;
  const window = widestWindow(postings.filter(linked).map((list) => list.length), MAX_PAIRS);
  // log(1 + |S|) rather than log |S|: one-word documents would divide by zero.
  const norm = documents.map((_, i) => Math.log(1 + slots[i]!.length));
  const shared = new Float64Array(n);
  const touched: number[] = [];
  const rows = new Int32Array(n + 1);
  const columns: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [term, at] of slots[i]!) {
      const list = postings[term]!;
      if (!linked(list)) continue;
      const from = Math.max(0, at - window);
      const last = Math.min(list.length - 1, at + window);
      // Each neighbour in the window stands for the documents of the word outside it: the word weighs on the
      // document as much as when it links all of them.
      const weight = (list.length - 1) / (last - from);
      for (let c = from; c <= last; c++) {
        const j = list[c]!;
        if (j === i) continue;
        if (shared[j] === 0) touched.push(j);
        shared[j]! += weight;
      }
    }
    for (const j of touched) {
      columns.push(j);
      weights.push(shared[j]! / (norm[i]! + norm[j]!));
      shared[j] = 0;
    }
    touched.length = 0;
    rows[i + 1] = columns.length;
  }
  return { rows, columns: Int32Array.from(columns), weights: Float64Array.from(weights) };
}

/**
 * @param sizes each linking word's number of documents
 * @returns the widest window (at least 1) whose pairs stay within `budget`; the largest size when all pairs do
 */
function widestWindow(sizes: readonly number[], budget: number): number {
  const pairs = (window: number) =>
    sizes.reduce((sum, d) => sum + (d <= window + 1 ? (d * (d - 1)) / 2 : window * d - (window * (window + 1)) / 2), 0);
  let low = 1;
  let high = Math.max(1, ...sizes);
  if (pairs(high) <= budget) return high;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (pairs(mid) <= budget) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * @returns each term's documents in order (`postings`, by term number), and each document's distinct terms as
 *   [term number, its place in that term's postings] (`slots`)
 */
function indexTerms(documents: readonly (readonly string[])[]): { postings: number[][]; slots: [number, number][][] } {
  const numbers = new Map<string, number>();
  const postings: number[][] = [];
  const slots = documents.map((document, index) => {
    const own: [number, number][] = [];
    for (const term of new Set(document)) {
      let number = numbers.get(term);
      if (number === undefined) {
        numbers.set(term, number = postings.length);
        postings.push([]);
      }
      own.push([number, postings[number]!.length]);
      postings[number]!.push(index);
    }
    return own;
  });
  return { postings, slots };
}

function pageRank(graph: Graph, damping: number, iterations: number, tolerance: number): number[] {
  const { rows, columns, weights } = graph;
  const n = rows.length - 1;
  const outWeight = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let e = rows[i]!; e < rows[i + 1]!; e++) outWeight[i]! += weights[e]!;
  let scores = new Float64Array(n).fill(1 / n);
  for (let round = 0; round < iterations; round++) {
    // Nodes without edges spread their score evenly, so scores keep summing to 1.
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outWeight[i] === 0) dangling += scores[i]!;
    const next = new Float64Array(n).fill((1 - damping) / n + (damping * dangling) / n);
    for (let i = 0; i < n; i++) {
      if (outWeight[i] === 0) continue;
      const share = (damping * scores[i]!) / outWeight[i]!;
      for (let e = rows[i]!; e < rows[i + 1]!; e++) next[columns[e]!]! += share * weights[e]!;
    }
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs(next[i]! - scores[i]!);
    scores = next;
    if (change < tolerance) break;
  }
  return [...scores];
}
