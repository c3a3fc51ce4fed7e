/** @module Finds what comments cite: documents outside the repository, and file names, for the architecture tests. */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** Citations of documents a reader of the repository does not have: the owner's spec, its contract, the folder beside. */
export const OUTSIDE_DOCUMENT = /\bCONTRACT\b|\bspec ?§|§ ?\d|\.\.\/shared\b|\bSTYLE\.md\b/;

/** Folders that hold no file a comment should name: dependencies, build output, run-time data, git. */
const NOT_SOURCE = new Set(["node_modules", ".git", "dist", "data"]);

/** @returns the comments of a TypeScript source, block and line comments alike, in order */
export function comments(text: string): string[] {
  // A `//` right after a colon or a quote is a URL or a string, not a comment.
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g)].map((match) => match[0]);
}

/**
 * File names a comment names: paths or bare names ending in an extension the repository uses. URLs are left out,
 * and so are `.js` names, which are always a package's files (the repository's sources are TypeScript).
 */
export function fileNames(comment: string): string[] {
  const text = comment.replace(/https?:\/\/\S+/g, " ");
  const names = text.match(/(?<![\w@./-])[\w@./-]*[\w-]\.(?:ts|md|json|sh|toml|ya?ml|html|css|sql)\b/g) ?? [];
  return names.filter((name) => !/\.js\b/.test(name));
}

/** @returns every file of the repository at `root`, as paths relative to it with `/` separators */
export function repositoryFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? repositoryFiles(root, path) : [relative(root, path).split(sep).join("/")];
  });
}

/**
 * Whether a name a comment gives matches a file of the repository: a bare name anywhere, a path from the root, from
 * the commenting file's folder (a relative path), or as the tail of a longer one (`budget/fair-line.ts`, or a consumer's
 * `video-chat-service/src/app/client-types.ts`).
 *
 * @param files the repository's files, relative to its root
 * @param from the commenting file's folder, relative to the root
 */
export function namesAFile(name: string, files: readonly string[], from: string): boolean {
  if (!name.includes("/")) return files.some((file) => file === name || file.endsWith(`/${name}`));
  const fromFolder = join(from, name).split(sep).join("/");
  return files.some((file) =>
    file === name || file === fromFolder || file.endsWith(`/${name}`) || name.endsWith(`/${file}`)
  );
}
