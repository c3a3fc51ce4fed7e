import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const DOMAIN = new URL("../src/domain/", import.meta.url).pathname;
const FORBIDDEN = [
  /from\s+["'](\.\.\/)+(adapters|app)\//,
  /from\s+["'](elysia|groq-sdk|youtube-transcript|redis|ioredis|@elysiajs\/[a-z-]+|bun:[a-z]+|node:[a-z_/]+)["']/,
  /\bBun\./,
  /\bDeno\./,
  /\bprocess\./,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

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
    const src = new URL("../src/", import.meta.url).pathname;
    const bare = sourceFiles(src).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!).filter((spec) => !spec.endsWith(".ts") && !spec.endsWith(".json")).map((spec) => `${file}: ${spec}`),
    );
    expect(bare).toEqual([]);
  });
});
