import { openapi } from "@elysiajs/openapi";

/** The OpenAPI document at /swagger/json and the interactive page at /swagger; no key needed. */
export function apiDocs() {
  return openapi({
    path: "/swagger",
    specPath: "/swagger/json",
    documentation: {
      info: {
        title: "Video Chat Service",
        version: "1.0.0",
        description: "Answers questions about a YouTube video from its transcript. Authenticate with the x-api-key header.",
      },
      components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } } },
      security: [{ apiKey: [] }],
    },
    exclude: { paths: ["/swagger", "/swagger/json"] },
  });
}
