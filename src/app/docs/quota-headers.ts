/** @module The quota headers as the OpenAPI document describes them. */
/** The quota headers: sent only to a key with a quota, describing the one closest to spent. */
export const QUOTA_HEADERS = {
  "Quota-Limit": {
    description: "Your key's quota (sent only when it has one; with several, the one closest to spent), in the unit " +
      "of Quota-Policy: video minutes or requests per UTC day or month",
    schema: { type: "integer" },
  },
  "Quota-Remaining": {
    description: "What is left of it, this request included (a stream's headers: before its answer is charged)",
    schema: { type: "integer" },
  },
  "Quota-Reset": {
    description: "Seconds until its UTC day or month ends and it renews",
    schema: { type: "integer" },
  },
  "Quota-Policy": {
    description: "The quota the other three describe, e.g. `600min/month` or `1000req/day`",
    schema: { type: "string" },
  },
};
