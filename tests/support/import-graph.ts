/** @module Builds the import graph of source files and finds its cycles, for the architecture tests. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Every `.ts` file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  );
}

/** Relative specifiers a file imports: static (`from "..."`, types included), side-effect and dynamic. */
export function relativeImports(text: string): string[] {
  const patterns = [
    /from\s+["'](\.{1,2}\/[^"']+)["']/g,
    /import\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
    /import\s+["'](\.{1,2}\/[^"']+)["']/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

/** The import graph of the files: each file to the files it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((
      file,
    ) => [file, relativeImports(readFileSync(file, "utf8")).map((spec) => resolve(dirname(file), spec))]),
  );
}

/**
 * Import cycles in a graph, each as the path that closes it (`a → b → a`),
 * found as the back edges of a depth-first search.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const done = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const open = stack.indexOf(next);
      if (open >= 0) cycles.push([...stack.slice(open), next]);
      else if (!done.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return cycles;
}
