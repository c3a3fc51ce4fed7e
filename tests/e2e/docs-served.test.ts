/** @module End-to-end test that the docs page and every file it loads are served, from the binary's embedded copies too. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { ROOT, targetFromEnv } from "../support/service/process.ts";
import { servicePerFile } from "../support/service/per-file.ts";

/**
 * Swagger UI's files are imported as text, which `bun build --compile` inlines into the binary: a build that
 * dropped or mangled one would break only the compiled service. tests/browser/ renders the page in Chromium on
 * Bun; this reads it as plain HTTP on each target, cheaply enough for the binary and Deno suites.
 */
const rig = servicePerFile(({ youtube, llm }) => ({
  API_KEYS: "docs-key-0123456789",
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_fake_for_docs",
  GROQ_BASE_URL: llm.baseUrl,
  GROQ_MODEL: "fake-model",
}));

const UI_FILES: Record<string, { path: string; type: string }> = {
  "swagger-ui-bundle.js": { path: "node_modules/swagger-ui-dist/swagger-ui-bundle.js", type: "text/javascript" },
  "swagger-ui.css": { path: "node_modules/swagger-ui-dist/swagger-ui.css", type: "text/css" },
};

describe(`the docs page and its files (${targetFromEnv()})`, () => {
  test("/swagger links its stylesheet and scripts, each served whole with its type, and /swagger/json documents POST /chat", async () => {
    const page = await fetch(`${rig.service.url}/swagger`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    const linked = [...html.matchAll(/(?:href|src)="(\/swagger\/[^"]+)"/g)].map((match) => match[1]!);
    expect(linked).toHaveLength(3);
    for (const path of linked) {
      const response = await fetch(`${rig.service.url}${path}`);
      expect(response.status, path).toBe(200);
      const body = await response.text();
      const file = UI_FILES[path.slice(path.lastIndexOf("/") + 1)];
      if (file) {
        expect(response.headers.get("content-type"), path).toContain(file.type);
        expect(body === readFileSync(`${ROOT}${file.path}`, "utf8"), `${path} is the package's file`).toBe(true);
      } else {
        expect(response.headers.get("content-type"), path).toContain("text/javascript");
        expect(body, path).toContain("SwaggerUIBundle");
      }
    }
    const document = await fetch(`${rig.service.url}/swagger/json`);
    expect(document.status).toBe(200);
    const json = (await document.json()) as { paths: Record<string, { post?: unknown }> };
    expect(json.paths["/chat"]?.post).toBeDefined();
  });
});
