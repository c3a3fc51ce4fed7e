/** @module The docs page: its paths, Content-Security-Policy, init script and HTML. */
/** Where the docs live: the page, and the OpenAPI document (README, API docs). */
export const DOCS_PATH = "/swagger";
export const DOCS_JSON_PATH = `${DOCS_PATH}/json`;

/**
 * The page's Content-Security-Policy: scripts, styles and requests only from
 * this service, so the page works (and is proven to work) with no CDN at all.
 * No inline script or style is allowed (Swagger UI sets styles through the DOM,
 * which CSP permits); `data:` images are the icons inside its CSS.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Starts Swagger UI on the page. A file of its own rather than an inline
 * script, so the CSP needs no `'unsafe-inline'` for scripts. The validator
 * badge is off: it would send the document to a public server.
 */
export const DOCS_INIT_SCRIPT = `"use strict";
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(DOCS_JSON_PATH)},
    dom_id: "#swagger-ui",
    validatorUrl: null,
    docExpansion: "full",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    deepLinking: false,
    persistAuthorization: false,
    requestSnippetsEnabled: true,
  });
});
`;

/**
 * @param assetBase absolute path of the Swagger UI files (its version included)
 * @returns the HTML of the docs page
 */
export function docsPageHtml(assetBase: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Video Chat Service: API reference</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${assetBase}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${assetBase}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/assets/docs-init.js"></script>
</body>
</html>
`;
}
