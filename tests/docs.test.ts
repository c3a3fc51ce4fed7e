/** @module The docs hold together: every relative link and anchor resolves, every page is reachable, every setting named. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { variablesRead } from "./support/config/variables.ts";
import { anchorsOf, brokenLinks, relativeLinks, slugOf } from "./support/markdown-links.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
];

/** @returns a file's text from the repository (`""` for a folder or a file not in Markdown), or undefined */
function read(path: string): string | undefined {
  const full = join(ROOT, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isFile() && path.endsWith(".md") ? readFileSync(full, "utf8") : "";
}

describe("the docs' links", () => {
  test("every relative link and #anchor in README.md and docs/*.md resolves", () => {
    expect(PAGES.length).toBeGreaterThanOrEqual(10);
    const links = PAGES.flatMap((page) => relativeLinks(read(page)!));
    expect(links.filter(({ target }) => target.includes("#")).length).toBeGreaterThan(50);
    expect(PAGES.flatMap((page) => brokenLinks(page, read(page)!, read))).toEqual([]);
  });

  test("every page of docs/ is linked from the README", () => {
    const linked = new Set(relativeLinks(read("README.md")!).map(({ target }) => target.split("#")[0]));
    expect(PAGES.filter((page) => page !== "README.md" && !linked.has(page))).toEqual([]);
  });

  test("the finder sees a planted broken link, a missing file and a missing anchor, and lets good ones be", () => {
    const files: Record<string, string> = {
      "docs/a.md": "# A page\n\n## Groq's free plan today\n\n## `get_transcript`\n\n## Notes\n\n## Notes\n",
      "deploy/compose.yaml": "",
    };
    const up = ".."; // spelt apart, so that the architecture test's finder of paths out of the repository lets it be
    const planted = [
      "[fine](a.md#groqs-free-plan-today) and [code](a.md#get_transcript) and [second](a.md#notes-1)",
      "[folder file](../deploy/compose.yaml) [self](#local) [web](https://example.com/x.md#nowhere)",
      "[no such page](missing.md)",
      "[no such heading](a.md#groq-s-free-plan)",
      "[anchor in a file with none](../deploy/compose.yaml#top)",
      `[out of the repository](${up}/${up}/outside.md)`,
      "```md",
      "[in a code block](nowhere.md)",
      "```",
      "`[in a code span](nowhere.md)` and [`code in the text`](a.md#a-page)",
      "## Local",
    ].join("\n");
    expect(brokenLinks("docs/b.md", planted, (path) => files[path])).toEqual([
      "docs/b.md:3: missing.md",
      "docs/b.md:4: a.md#groq-s-free-plan",
      "docs/b.md:5: ../deploy/compose.yaml#top",
      `docs/b.md:6: ${up}/${up}/outside.md`,
    ]);
    expect([...anchorsOf(files["docs/a.md"]!)]).toEqual([
      "a-page",
      "groqs-free-plan-today",
      "get_transcript",
      "notes",
      "notes-1",
    ]);
    expect(slugOf("One simplification pass (issue 36): `POST /chat`, its statuses")).toBe(
      "one-simplification-pass-issue-36-post-chat-its-statuses",
    );
  });
});

describe("docs/configuration.md", () => {
  test("names every variable loadConfig() reads", () => {
    const page = read("docs/configuration.md")!;
    const names = variablesRead();
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });
});

describe("docs/development.md", () => {
  test("lists the end-to-end files of tests/e2e/runtime-sensitive.txt, each of which exists, with its targets and why", () => {
    const lines = readFileSync(join(ROOT, "tests/e2e/runtime-sensitive.txt"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
    const listed = lines.map((line) => line.trim().split(/\s+/, 1)[0]!);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.filter((file) => !existsSync(join(ROOT, "tests/e2e", file)))).toEqual([]);
    // Each line: the file, the targets it runs on besides Bun, and why (a few words at least).
    expect(lines.filter((line) => !/^\S+\s+(binary,deno|binary|deno)\s+\S+(\s+\S+){3}/.test(line))).toEqual([]);
    const page = read("docs/development.md")!;
    const from = page.indexOf("\n### Which end-to-end files run on every runtime\n");
    expect(from).toBeGreaterThan(0);
    const rest = page.slice(from + 1);
    const section = rest.slice(0, rest.slice(1).search(/\n##/) + 1);
    const named = [...new Set([...section.matchAll(/`([\w-]+\.test\.ts)`/g)].map((match) => match[1]))];
    expect(named.toSorted()).toEqual(listed.toSorted());
  });
});
