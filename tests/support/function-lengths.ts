/** @module Measures the functions of source files by their braces: a heuristic, no parser needed. */
import { readFileSync } from "node:fs";

/** A line that opens a function: a declaration, a method, or an arrow function with a block body. */
const OPENS = new RegExp(
  String.raw`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+\w+` +
    String.raw`|^\s*(?:(?:public|private|static|async|get|set)\s+)*#?\w+\s*(?:<[^>]*>)?\([^)]*\)?.*\{\s*$` +
    String.raw`|=>\s*\{\s*$`,
);
const STATEMENT = /^\s*(?:if|for|while|switch|catch|else|return)\b/;

/**
 * @returns each function's length in lines (from its opening line to its closing brace) with where it starts, longest
 *   first; braces in strings and line comments are skipped, and so are those inside parentheses (an object type of
 *   the parameters, an object argument), which would otherwise end the count at the signature
 */
export function functionLengths(files: readonly string[]): { lines: number; at: string }[] {
  const found: { lines: number; at: string }[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, start) => {
      if (!OPENS.test(line) || STATEMENT.test(line)) return;
      let depth = 0;
      let parens = 0;
      let opened = false;
      for (let end = start; end < lines.length; end++) {
        const code = lines[end]!.replace(/\/\/.*$/, "").replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, "");
        for (const char of code) {
          if (char === "(") parens++;
          else if (char === ")") parens--;
          else if (parens > 0) continue;
          else if (char === "{") [depth, opened] = [depth + 1, true];
          else if (char === "}") depth--;
        }
        if (opened && depth <= 0) {
          found.push({ lines: end - start + 1, at: `${file}:${start + 1}` });
          break;
        }
      }
    });
  }
  return found.sort((a, b) => b.lines - a.lines);
}
