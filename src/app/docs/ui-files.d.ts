/** @module Declares the docs UI files imported as text to be strings. */
// The docs page's UI files are imported as text (`with { type: "text" }`), which
// Bun and Deno both support; TypeScript needs to be told their default export is a string.
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const text: string;
  export default text;
}
