import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { importCycles, importGraph, relativeImports, sourceFiles } from "./support/import-graph.ts";

const SRC = new URL("../src/", import.meta.url).pathname;
const DOMAIN = join(SRC, "domain/");
const ADAPTERS = join(SRC, "adapters/");
const TEST_ADAPTERS = new URL("./adapters/", import.meta.url).pathname;
/** Helpers shared by several adapter areas, the only files allowed loose in src/adapters. */
const SHARED_ADAPTER_HELPERS = ["body-limit.ts"];
const FORBIDDEN = [
  /from\s+["'](\.\.\/)+(adapters|app)\//,
  /from\s+["'](elysia|groq-sdk|youtube-transcript|redis|ioredis|@elysiajs\/[a-z-]+|bun:[a-z]+|node:[a-z_/]+)["']/,
  /\bBun\./,
  /\bDeno\./,
  /\bprocess\./,
];

const entries = (dir: string) => readdirSync(dir, { withFileTypes: true });
const folders = (dir: string) => entries(dir).filter((e) => e.isDirectory()).map((e) => e.name).sort();

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
      relativeImports(readFileSync(file, "utf8")).filter((spec) => !spec.endsWith(".ts") && !spec.endsWith(".json")).map((spec) => `${file}: ${spec}`),
    );
    expect(bare).toEqual([]);
  });
});

describe("layout", () => {
  test("src has no import cycle", () => {
    const graph = importGraph(sourceFiles(SRC));
    expect(graph.size).toBeGreaterThan(50);
    const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(SRC, file)).join(" → "));
    expect(cycles).toEqual([]);
  });

  test("every adapter file lives in the folder of its area (only shared helpers at the root)", () => {
    const loose = entries(ADAPTERS).filter((e) => e.isFile()).map((e) => e.name).filter((name) => !SHARED_ADAPTER_HELPERS.includes(name));
    expect(loose).toEqual([]);
    expect(folders(ADAPTERS).length).toBeGreaterThanOrEqual(4);
  });

  test("tests/adapters mirrors the folders of src/adapters", () => {
    expect(folders(TEST_ADAPTERS)).toEqual(folders(ADAPTERS));
    const looseTests = entries(TEST_ADAPTERS).filter((e) => e.isFile()).map((e) => e.name.replace(/\.test\.ts$/, ".ts"));
    expect(looseTests.filter((name) => !SHARED_ADAPTER_HELPERS.includes(name))).toEqual([]);
  });
});

describe("the import-cycle finder", () => {
  test("reports a cycle through a type-only import, and none in a chain", () => {
    const cyclic = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]]);
    expect(importCycles(cyclic)).toEqual([["a", "b", "c", "a"]]);
    expect(importCycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
    expect(relativeImports('import type { X } from "./draft.ts";\nconst m = await import("./lazy.ts");')).toEqual(["./draft.ts", "./lazy.ts"]);
  });
});
