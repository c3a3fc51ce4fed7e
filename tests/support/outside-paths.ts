/** @module Finds relative paths in tests, benches and scripts that lead out of the repository (a clone has nothing there). */
import { dirname, join, relative } from "node:path";

/** A run of `../` with what follows it, in code or a string (`"../../x/y"`), or a bare `..` (`$(dirname "$0")/..`). */
const UP_PATH = /(?<![\w.])((?:\.\.\/)+\.{0,2}[\w.@-]*(?:\/[\w.@-]+)*|\.\.(?![\w./]))/g;
/** The folder a checkout of this workplace has beside it, which a user's clone lacks, from wherever it is read. */
const SIBLING_FOLDER = /^(?:\.\.\/)+shared(?:\/|$)/;

/**
 * @param text the file's text
 * @param file the file's path relative to the repository's root (`tests/support/fixtures.ts`)
 * @returns each relative path of the text that, read from the file's folder, leads out of the repository, and every
 *   path to the sibling `shared` folder, read from any folder
 */
export function pathsOutside(text: string, file: string): string[] {
  const root = "/repository";
  return [...text.matchAll(UP_PATH)].map((match) => match[1]!).filter((path) =>
    SIBLING_FOLDER.test(path) || relative(root, join(root, dirname(file), path)).startsWith("..")
  );
}
