/** @module TextRank centrality scores of documents, for picking a transcript's most central lines. */
/**
 * TextRank (Mihalcea & Tarau, 2004): documents are nodes of a graph whose
 * edges weigh the words two documents share, normalised by their lengths;
 * PageRank on that graph scores how central each document is.
 *
 * Terms found in more than a fifth of the documents carry no edge: they are
 * the language's function words, whatever the language, and would otherwise
 * link everything to everything (and cost quadratic time).
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
  const edges = similarityGraph(documents);
  return pageRank(edges, options.damping ?? 0.85, options.iterations ?? 50, options.tolerance ?? 1e-6);
}

/** Sparse symmetric weights: `edges[i]` maps neighbour j to the weight of i–j. */
function similarityGraph(documents: readonly (readonly string[])[]): Map<number, number>[] {
  const n = documents.length;
  const sets = documents.map((d) => new Set(d));
  const postings = new Map<string, number[]>();
  sets.forEach((set, index) => {
    for (const term of set) {
      const list = postings.get(term);
      if (list) list.push(index);
      else postings.set(term, [index]);
    }
  });
  const maxDf = Math.max(10, Math.floor(n / 5));
  const overlap: Map<number, number>[] = sets.map(() => new Map());
  for (const list of postings.values()) {
    if (list.length < 2 || list.length > maxDf) continue;
    for (let a = 0; a < list.length; a++) {
      for (let c = a + 1; c < list.length; c++) {
        const i = list[a]!;
        const j = list[c]!;
        overlap[i]!.set(j, (overlap[i]!.get(j) ?? 0) + 1);
        overlap[j]!.set(i, (overlap[j]!.get(i) ?? 0) + 1);
      }
    }
  }
  // log(1 + |S|) rather than log |S|: one-word documents would divide by zero.
  const norm = sets.map((s) => Math.log(1 + s.size));
  return overlap.map((row, i) => new Map([...row].map(([j, shared]) => [j, shared / (norm[i]! + norm[j]!)])));
}

function pageRank(
  edges: readonly Map<number, number>[],
  damping: number,
  iterations: number,
  tolerance: number,
): number[] {
  const n = edges.length;
  const outWeight = edges.map((row) => [...row.values()].reduce((s, w) => s + w, 0));
  let scores = new Array<number>(n).fill(1 / n);
  for (let round = 0; round < iterations; round++) {
    // Nodes without edges spread their score evenly, so scores keep summing to 1.
    const dangling = scores.reduce((s, score, i) => (outWeight[i] === 0 ? s + score : s), 0);
    const next = new Array<number>(n).fill((1 - damping) / n + (damping * dangling) / n);
    edges.forEach((row, i) => {
      if (outWeight[i] === 0) return;
      const share = (damping * scores[i]!) / outWeight[i]!;
      for (const [j, weight] of row) next[j]! += share * weight;
    });
    const change = next.reduce((s, v, i) => s + Math.abs(v - scores[i]!), 0);
    scores = next;
    if (change < tolerance) break;
  }
  return scores;
}
