/** @module The API documentation routes: the OpenAPI document, the Swagger UI page and its assets. */
import { Elysia } from "elysia";
import { type DocsAsset, docsAssets, SWAGGER_UI_BASE } from "./assets.ts";
import { buildOpenApiDocument } from "./document.ts";
import { chatRoute } from "../contract/chat-route.ts";
import { JSON_CONTENT_TYPE } from "../contract/error-response.ts";
import { DOCS_CSP, DOCS_JSON_PATH, DOCS_PATH, docsPageHtml } from "./page.ts";

/**
 * The API's documentation, the one part of the service needing no key: the OpenAPI document
 * at `/swagger/json` and an interactive page at `/swagger` whose scripts and
 * styles the service serves itself (Swagger UI from its npm package), so the
 * page works offline and under a CSP that allows no other origin.
 *
 * @param options.commonHeaders headers every response of the app carries (its request id, CORS)
 * @returns an Elysia plugin; the document describes `POST /chat` only, from its declaration
 */
export function apiDocs(options: { commonHeaders: (request: Request) => Record<string, string> }) {
  const respond = (request: Request, body: BodyInit, headers: Record<string, string>) =>
    new Response(body, { headers: { ...options.commonHeaders(request), ...headers } });
  const page = docsPageHtml(SWAGGER_UI_BASE);
  let document: string | undefined;
  const app = new Elysia()
    .get(DOCS_PATH, ({ request }): Response => respond(request, page, pageHeaders()))
    .get(DOCS_JSON_PATH, ({ request }): Response => {
      document ??= JSON.stringify(buildOpenApiDocument(chatRoute));
      return respond(request, document, { "content-type": JSON_CONTENT_TYPE });
    });
  for (const [path, asset] of docsAssets()) {
    app.get(path, ({ request }): Response => respond(request, asset.body, assetHeaders(asset)));
  }
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
