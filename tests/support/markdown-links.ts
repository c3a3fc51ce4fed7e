/** @module Finds the relative links of a Markdown page and the anchors GitHub gives its headings, to check they resolve. */
import { dirname, join, normalize } from "node:path";

/** A link as written, and the line it is on. */
export interface Link {
  target: string;
  line: number;
}

/** `[text](target)` or `![alt](target "title")`; the text may hold code spans or brackets one level deep. */
const LINK = /!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;
const FENCE = /^\s*(```|~~~)/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** @returns the lines of `markdown` outside fenced code blocks, with their 1-based numbers */
function proseLines(markdown: string): { text: string; line: number }[] {
  let fenced = false;
  return markdown.split("\n").flatMap((text, i) => {
    if (FENCE.test(text)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ text, line: i + 1 }];
  });
}

/**
 * @param heading a heading's text as written (`Groq's free plan today`, `` `get_transcript` ``)
 * @returns its anchor as GitHub makes it: lower case, link targets and punctuation dropped, spaces as hyphens
 */
export function slugOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/\]\([^)]*\)/g, "").replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** @returns every anchor of the page's headings; a repeated heading gets `-1`, `-2`... as on GitHub */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** @returns the page's links that are neither to another site nor an e-mail address, outside code */
export function relativeLinks(markdown: string): Link[] {
  return proseLines(markdown).flatMap(({ text, line }) =>
    [...text.replace(/`[^`]*`/g, "`code`").matchAll(LINK)].map((m) => ({ target: m[1]!, line }))
      .filter(({ target }) => !SCHEME.test(target))
  );
}

/**
 * @param file the page's path from the repository's root (`docs/llm.md`)
 * @param markdown the page's text
 * @param read a path from the root → the file's text (`""` for a folder or a file that is not Markdown), or
 *   undefined when nothing is there
 * @returns each link that leads nowhere (`docs/llm.md:12: operating.md#no-such-heading`)
 */
export function brokenLinks(file: string, markdown: string, read: (path: string) => string | undefined): string[] {
  return relativeLinks(markdown).flatMap(({ target, line }) => {
    const [path = "", anchor] = target.split("#", 2);
    const resolved = path === "" ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    const text = resolved.startsWith("..") ? undefined : resolved === file ? markdown : read(resolved);
    const fine = text !== undefined &&
      (anchor === undefined || (resolved.endsWith(".md") && anchorsOf(text).has(anchor)));
    return fine ? [] : [`${file}:${line}: ${target}`];
  });
}
