/** @module The house's rules, checked: dependency direction, rooms, mirrored tests, headers, comments, the Layout. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { comments, fileNames, namesAFile, OUTSIDE_DOCUMENT, repositoryFiles } from "./support/comment-references.ts";
import { importCycles, importGraph, relativeImports, sourceFiles } from "./support/import-graph.ts";
import { pathsOutside } from "./support/outside-paths.ts";
import { functionLengths } from "./support/function-lengths.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const SRC = join(ROOT, "src/");
const DOMAIN = join(SRC, "domain/");
const FORBIDDEN = [
  /from\s+["'](\.\.\/)+(adapters|app)\//,
  /from\s+["'](elysia|groq-sdk|youtube-transcript|redis|ioredis|@elysiajs\/[a-z-]+|@modelcontextprotocol\/[a-z-]+|bun:[a-z]+|node:[a-z_/]+)["']/,
  /\bBun\./,
  /\bDeno\./,
  /\bprocess\./,
];
/**
 * The files allowed directly in a folder that has rooms, and how many. Everything
 * else lives in a room: a name prefix (`docs-*`) is a sign that a folder is missing.
 */
const LOOSE: Record<string, { allowed?: readonly string[]; atMost: number }> = {
  "src/app": { allowed: ["main-bun.ts", "main-deno.ts", "keys-cli.ts", "client-types.ts", "mcp.ts"], atMost: 6 },
  "src/adapters": { allowed: ["body-limit.ts"], atMost: 1 },
  "src/adapters/llm": {
    allowed: ["chain-answer-writer.ts", "openai-compatible-answer-writer.ts", "llm-answer-writer.ts"],
    atMost: 4,
  },
  "src/domain": { atMost: 12 },
};
/** Test folders that mirror src/ file for file. */
const MIRRORED = ["domain", "adapters", "app"];

const entries = (dir: string) => readdirSync(dir, { withFileTypes: true });
const folders = (dir: string) => entries(dir).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const looseFiles = (dir: string) => entries(dir).filter((e) => e.isFile()).map((e) => e.name).sort();
const allFolders = (dir: string): string[] =>
  folders(dir).flatMap((name) => [join(dir, name), ...allFolders(join(dir, name))]);

describe("dependency direction", () => {
  const files = sourceFiles(DOMAIN);

  test("the domain has source files to check", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  test.each(files.map((f) => [f.slice(DOMAIN.length), f]))("src/domain/%s imports nothing outward", (_name, file) => {
    const text = readFileSync(file, "utf8");
    const offending = FORBIDDEN.filter((pattern) => pattern.test(text)).map(String);
    expect(offending).toEqual([]);
  });

  test("src imports local files with explicit .ts extensions (so Deno runs the same source)", () => {
    const bare = sourceFiles(SRC).flatMap((file) =>
      relativeImports(readFileSync(file, "utf8")).filter((spec) => !spec.endsWith(".ts") && !spec.endsWith(".json"))
        .map((spec) => `${file}: ${spec}`)
    );
    expect(bare).toEqual([]);
  });

  test("the adapters import nothing from src/app (the composition root builds them, not the reverse)", () => {
    const outward = sourceFiles(join(SRC, "adapters/")).filter((file) =>
      relativeImports(readFileSync(file, "utf8")).some((spec) => /(\.\.\/)+app\//.test(spec))
    );
    expect(outward.map((file) => relative(ROOT, file))).toEqual([]);
  });
});

describe("layout", () => {
  test("no function in src/ is over 120 lines (measured by its braces)", () => {
    const lengths = functionLengths(sourceFiles(SRC));
    expect(lengths.length).toBeGreaterThan(200);
    expect(lengths.filter((f) => f.lines > 120).map((f) => `${relative(ROOT, f.at)} (${f.lines} lines)`)).toEqual([]);
  });

  test("the function measure counts past a signature whose parameters hold an object type", () => {
    const dir = mkdtempSync(join(tmpdir(), "vcs-lengths-"));
    const file = join(dir, "sample.ts");
    const body = Array.from({ length: 5 }, (_, i) => `  const step${i} = ${i};`).join("\n");
    writeFileSync(
      file,
      `export function sample(\n  options: {\n    a: number;\n  },\n): number {\n${body}\n  return 0;\n}\n`,
    );
    try {
      expect(functionLengths([file])[0]).toEqual({ lines: 12, at: `${file}:1` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("src has no import cycle", () => {
    const graph = importGraph(sourceFiles(SRC));
    expect(graph.size).toBeGreaterThan(50);
    const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(SRC, file)).join(" → "));
    expect(cycles).toEqual([]);
  });

  test.each(Object.entries(LOOSE))("%s holds only its allowed loose files, within its bound", (folder, rule) => {
    const loose = looseFiles(join(ROOT, folder));
    expect(loose.length).toBeLessThanOrEqual(rule.atMost);
    if (rule.allowed) expect(loose.filter((name) => !rule.allowed!.includes(name))).toEqual([]);
  });

  test("no two rooms of src/app import each other", () => {
    const app = join(SRC, "app/");
    const roomOf = (file: string) => relative(app, file).split("/")[0]!;
    const edges = new Set<string>();
    for (const [file, targets] of importGraph(sourceFiles(app))) {
      for (const target of targets) {
        if (!target.startsWith(app) || !relative(app, file).includes("/") || !relative(app, target).includes("/")) {
          continue;
        }
        if (roomOf(file) !== roomOf(target)) edges.add(`${roomOf(file)} → ${roomOf(target)}`);
      }
    }
    const mutual = [...edges].filter((edge) => edges.has(edge.split(" → ").reverse().join(" → ")));
    expect(mutual).toEqual([]);
  });

  test.each(MIRRORED)(
    "tests/%s mirrors src: every test names a source file (`x.test.ts` or `x.<aspect>.test.ts`)",
    (area) => {
      const tests = sourceFiles(join(ROOT, "tests", area)).filter((file) => file.endsWith(".test.ts"));
      expect(tests.length).toBeGreaterThan(5);
      const orphans = tests.filter((file) => {
        const source = relative(join(ROOT, "tests"), file).replace(/(\.[a-z-]+)?\.test\.ts$/, ".ts");
        return !existsSync(join(SRC, source));
      });
      expect(orphans.map((file) => relative(ROOT, file))).toEqual([]);
    },
  );

  test("tests mirror the rooms of src: each folder of tests/{domain,adapters,app} exists in src", () => {
    const testFolders = MIRRORED.flatMap((area) =>
      allFolders(join(ROOT, "tests", area)).map((dir) => relative(join(ROOT, "tests"), dir))
    );
    const extra = testFolders.filter((dir) => !existsSync(join(SRC, dir)) && !/fixtures|corpus/.test(dir));
    expect(extra).toEqual([]);
  });

  test("every source, test and bench file opens with one line saying what it is for", () => {
    const files = ["src", "tests", "bench"].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    const bare = files.filter((file) =>
      !/^\/\*\* @module [^\n]+\*\/$/.test(readFileSync(file, "utf8").split("\n", 1)[0]!)
    );
    expect(bare.map((file) => relative(ROOT, file))).toEqual([]);
  });

  test("bench/ takes from tests/ only the shared support and labelled data; no test imports bench/", () => {
    const importsOf = (dir: string) =>
      sourceFiles(join(ROOT, dir)).flatMap((file) =>
        relativeImports(readFileSync(file, "utf8")).map((spec) => ({
          file: relative(ROOT, file),
          target: relative(ROOT, join(file, "..", spec)),
        }))
      );
    const benchFromTests = importsOf("bench").filter(({ target }) =>
      target.startsWith("tests/") && !target.startsWith("tests/support/") && !/\/(fixtures|[\w-]*corpus)\//.test(target)
    );
    const testsFromBench = importsOf("tests").filter(({ target }) => target.startsWith("bench/"));
    expect([...benchFromTests, ...testsFromBench].map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  test("no line in src/ is over 120 characters (the formatter's width; strings and comments included)", () => {
    const long = sourceFiles(SRC).flatMap((file) =>
      readFileSync(file, "utf8").split("\n").flatMap((line, i) =>
        [...line].length > 120 ? [`${relative(ROOT, file)}:${i + 1}`] : []
      )
    );
    expect(long).toEqual([]);
  });

  test("the Layout of docs/development.md lists exactly the folders of src/", () => {
    const page = readFileSync(join(ROOT, "docs/development.md"), "utf8");
    const layout = /## Layout\n+```\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
    const listed: string[] = [];
    const stack: string[] = [];
    for (const line of layout.split("\n")) {
      // A folder line: two spaces a level, the name, then its description (continuation lines are deeper).
      const match = /^((?: {2})*)([a-z][\w-]*\/)(?: {2,}|$)/.exec(line);
      if (!match || match[1]!.length / 2 > stack.length) continue;
      const depth = match[1]!.length / 2;
      stack.length = depth;
      stack.push(match[2]!);
      listed.push(stack.join("").replace(/\/$/, ""));
    }
    const actual = ["src", ...allFolders(SRC).map((dir) => relative(ROOT, dir))];
    expect(listed.filter((dir) => dir.startsWith("src")).sort()).toEqual(actual.sort());
  });
});

describe("comments", () => {
  const commented = ["src", "tests", "bench", "scripts"].flatMap((dir) =>
    sourceFiles(join(ROOT, dir)).map((file) => ({
      file: relative(ROOT, file),
      comments: comments(readFileSync(file, "utf8")),
    }))
  );

  test("no comment cites a document outside the repository (the spec, its contract, the folder beside)", () => {
    const citing = commented.flatMap(({ file, comments }) =>
      comments.filter((comment) => OUTSIDE_DOCUMENT.test(comment)).map((comment) => `${file}: ${comment.slice(0, 80)}`)
    );
    expect(citing).toEqual([]);
  });

  test("every file a comment names exists in the repository", () => {
    const files = repositoryFiles(ROOT);
    const named = commented.flatMap(({ file, comments }) =>
      comments.flatMap(fileNames).map((name) => ({ file, name }))
    );
    expect(named.length).toBeGreaterThan(50);
    const missing = named.filter(({ file, name }) => !namesAFile(name, files, dirname(file)));
    expect(missing.map(({ file, name }) => `${file}: ${name}`)).toEqual([]);
  });

  test("the finders see a citation, a stale file name and a package's file for what they are", () => {
    // Written with \x2f for "/", so that this file's own comments stay clean.
    const [block, line] = comments(
      '\x2f** As CONTRACT §4 says. *\x2f\nconst url = "https:\x2f/x.test/a.ts"; \x2f/ see compose-llm.ts',
    );
    expect(OUTSIDE_DOCUMENT.test(block!)).toBe(true);
    expect(fileNames(line!)).toEqual(["compose-llm.ts"]);
    expect(fileNames("the SDK maps `types.js` to `types.js.d.ts`; see https://x.test/b.ts")).toEqual([]);
    const files = ["src/app/compose/llm.ts", "README.md"];
    expect(namesAFile("compose-llm.ts", files, "src/app/metrics")).toBe(false);
    expect(namesAFile("compose/llm.ts", files, "src/app/metrics")).toBe(true);
    expect(namesAFile("../compose/llm.ts", files, "src/app/metrics")).toBe(true);
    expect(namesAFile("README.md", files, "src/app/metrics")).toBe(true);
  });
});

describe("a clone stands alone", () => {
  const scripted = [
    ...["tests", "bench", "scripts"].flatMap((dir) => repositoryFiles(ROOT, join(ROOT, dir))),
    ".ci/run",
  ]
    .filter((file) => /\.(ts|sh|js|mjs)$|^\.ci\//.test(file) && !file.startsWith("tests/fixtures/"));

  test("no test, bench or script reads a path outside the repository (a user's clone has nothing beside it)", () => {
    expect(scripted.length).toBeGreaterThan(100);
    const outside = scripted.flatMap((file) =>
      pathsOutside(readFileSync(join(ROOT, file), "utf8"), file).map((path) => `${file}: ${path}`)
    );
    expect(outside).toEqual([]);
  });

  test("the finder sees a planted path out of the repository, and lets paths inside it be", () => {
    const up = "..";
    const planted = `new URL("${up}/${up}/${up}/shared/fixtures/youtube/", import.meta.url)`;
    expect(pathsOutside(planted, "tests/support/fixtures.ts")).toEqual([`${up}/${up}/${up}/shared/fixtures/youtube`]);
    expect(pathsOutside(`new URL("${up}/fixtures/youtube/", import.meta.url)`, "tests/support/fixtures.ts")).toEqual(
      [],
    );
    expect(pathsOutside(`import { x } from "${up}/${up}/src/app/x.ts";`, "tests/e2e/x.test.ts")).toEqual([]);
    expect(pathsOutside(`cd "$(dirname "$0")/${up}"`, "scripts/test.sh")).toEqual([]);
    expect(pathsOutside(`cd "$(dirname "$0")/${up}/${up}"`, "scripts/test.sh")).toEqual([`${up}/${up}`]);
    expect(pathsOutside(`readFileSync("${up}/shared/spec/x.md")`, "bench/x.ts")).toEqual([`${up}/shared/spec/x.md`]);
  });
});

describe("the import-cycle finder", () => {
  test("reports a cycle through a type-only import, and none in a chain", () => {
    const cyclic = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]]);
    expect(importCycles(cyclic)).toEqual([["a", "b", "c", "a"]]);
    expect(importCycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
    expect(relativeImports('import type { X } from "./draft.ts";\nconst m = await import("./lazy.ts");')).toEqual([
      "./draft.ts",
      "./lazy.ts",
    ]);
  });
});
