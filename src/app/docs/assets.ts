/** @module Swagger UI's files, imported as text and served under the docs path. */
// Swagger UI's files, imported as text so that every runtime gets them the same way:
// `bun run` and Deno read them from node_modules, and `bun build --compile` inlines
// them into the binary. No CDN, no file system access at run time.
import swaggerUiBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import swaggerUiCss from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import swaggerUiPackage from "swagger-ui-dist/package.json" with { type: "json" };
import { DOCS_INIT_SCRIPT, DOCS_PATH } from "./page.ts";

/** One file served under the docs path. */
export interface DocsAsset {
  body: string;
  contentType: string;
  /** `immutable` for files whose name changes with their content (the UI's version is in the path). */
  cache: "immutable" | "revalidate";
}

/** The UI's version, part of its files' paths so that browsers may cache them for good. */
export const SWAGGER_UI_VERSION: string = swaggerUiPackage.version;

/** Absolute path of Swagger UI's files. */
export const SWAGGER_UI_BASE = `${DOCS_PATH}/assets/swagger-ui-${SWAGGER_UI_VERSION}`;

/**
 * The docs page's files, keyed by their absolute path.
 *
 * @returns a fresh map from path to file
 */
export function docsAssets(): Map<string, DocsAsset> {
  const ui = SWAGGER_UI_BASE;
  return new Map<string, DocsAsset>([
    [`${ui}/swagger-ui-bundle.js`, {
      body: swaggerUiBundle,
      contentType: "text/javascript; charset=utf-8",
      cache: "immutable",
    }],
    [`${ui}/swagger-ui.css`, { body: swaggerUiCss, contentType: "text/css; charset=utf-8", cache: "immutable" }],
    [`${DOCS_PATH}/assets/docs-init.js`, {
      body: DOCS_INIT_SCRIPT,
      contentType: "text/javascript; charset=utf-8",
      cache: "revalidate",
    }],
  ]);
}
