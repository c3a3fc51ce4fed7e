import { Elysia } from "elysia";
import { docsAssets, SWAGGER_UI_BASE, type DocsAsset } from "./docs-assets.ts";
import { buildOpenApiDocument } from "./docs-document.ts";
import { DOCS_CSP, DOCS_JSON_PATH, DOCS_PATH, docsPageHtml } from "./docs-page.ts";

const HIDDEN = { detail: { hide: true } } as const;

/**
 * The API's documentation, needing no key (CONTRACT §1): the OpenAPI document
 * at `/swagger/json` and an interactive page at `/swagger` whose scripts and
 * styles the service serves itself (Swagger UI from its npm package), so the
 * page works offline and under a CSP that allows no other origin.
 *
 * @returns an Elysia plugin; none of its routes appears in the document
 */
export function apiDocs() {
  const page = docsPageHtml(SWAGGER_UI_BASE);
  let document: Record<string, unknown> | undefined;
  const app = new Elysia()
    .get(DOCS_PATH, () => new Response(page, { headers: pageHeaders() }), HIDDEN)
    // Elysia shares one route table, so this instance sees POST /chat once the app is built.
    .get(DOCS_JSON_PATH, () => {
      document ??= buildOpenApiDocument(app);
      return document;
    }, HIDDEN);
  for (const [path, asset] of docsAssets()) app.get(path, () => new Response(asset.body, { headers: assetHeaders(asset) }), HIDDEN);
  return app;
}

function pageHeaders(): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": DOCS_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
  };
}

function assetHeaders(asset: DocsAsset): Record<string, string> {
  return {
    "content-type": asset.contentType,
    "x-content-type-options": "nosniff",
    "cache-control": asset.cache === "immutable" ? "public, max-age=31536000, immutable" : "no-cache",
  };
}
