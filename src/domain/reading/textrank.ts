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
  const index = indexTerms(documents);
  const { starts, postings, docStarts, docTerms, places } = index;
  const maxDf = Math.max(10, Math.floor(n / 5));
  const size = (term: number) => starts[term + 1]! - starts[term]!;
  const linked = (term: number) => size(term) >= 2 && size(term) <= maxDf;
  const sizes: number[] = [];
  for (let term = 0; term < starts.length - 1; term++) if (linked(term)) sizes.push(size(term));
  const window = widestWindow(sizes, MAX_PAIRS);
  const shared = new Float64Array(n);
  const touched: number[] = [];
  const rows = new Int32Array(n + 1);
  const columns: number[] = [];
  const weights: number[] = [];
  // log(1 + |S|) rather than log |S|: one-word documents would divide by zero.
  const norm = (i: number) => Math.log(1 + docStarts[i + 1]! - docStarts[i]!);
  for (let i = 0; i < n; i++) {
    for (let slot = docStarts[i]!; slot < docStarts[i + 1]!; slot++) {
      const term = docTerms[slot]!;
      if (!linked(term)) continue;
      const at = places[slot]!;
      const from = Math.max(0, at - window);
      const last = Math.min(size(term) - 1, at + window);
      // Each neighbour in the window stands for the documents of the word outside it: the word weighs on the
      // document as much as when it links all of them.
      const weight = (size(term) - 1) / (last - from);
      for (let c = from; c <= last; c++) {
        const j = postings[starts[term]! + c]!;
        if (j === i) continue;
        if (shared[j] === 0) touched.push(j);
        shared[j]! += weight;
      }
    }
    for (const j of touched) {
      columns.push(j);
      weights.push(shared[j]! / (norm(i) + norm(j)));
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
  let high = sizes.reduce((max, d) => Math.max(max, d), 1);
  if (pairs(high) <= budget) return high;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (pairs(mid) <= budget) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The documents' terms by number, in flat arrays: a transcript of many distinct words makes no array per word. */
interface TermIndex {
  /** Term t's documents are `postings[starts[t]..starts[t+1]]`, in order. */
  starts: Int32Array;
  postings: Int32Array;
  /** Document i's distinct terms are `docTerms[docStarts[i]..docStarts[i+1]]`... */
  docStarts: Int32Array;
  docTerms: Int32Array;
  /** ...and `places` gives each one's place among that term's documents. */
  places: Int32Array;
}

function indexTerms(documents: readonly (readonly string[])[]): TermIndex {
  const numbers = new Map<string, number>();
  const counts: number[] = [];
  const docStarts = new Int32Array(documents.length + 1);
  const terms: number[] = [];
  const places: number[] = [];
  documents.forEach((document, i) => {
    for (const term of new Set(document)) {
      let number = numbers.get(term);
      if (number === undefined) {
        numbers.set(term, number = counts.length);
        counts.push(0);
      }
      terms.push(number);
      places.push(counts[number]!++);
    }
    docStarts[i + 1] = terms.length;
  });
  const starts = new Int32Array(counts.length + 1);
  for (let t = 0; t < counts.length; t++) starts[t + 1] = starts[t]! + counts[t]!;
  const postings = new Int32Array(terms.length);
  for (let i = 0; i < documents.length; i++) {
    for (let slot = docStarts[i]!; slot < docStarts[i + 1]!; slot++) {
      postings[starts[terms[slot]!]! + places[slot]!] = i;
    }
  }
  return { starts, postings, docStarts, docTerms: Int32Array.from(terms), places: Int32Array.from(places) };
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
