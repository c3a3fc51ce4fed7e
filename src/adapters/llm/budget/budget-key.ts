/** @module The name of one provider budget: whose limits they are (endpoint, model, organisation's key). */

/**
 * The provider counts tokens per organisation (API key) and model at one
 * endpoint: instances share a budget only when all three are the same. The
 * key is named by a digest, never itself; the endpoint loses any
 * credentials written in its URL.
 *
 * @param digest a one-way digest of a string (hex)
 * @returns e.g. `api.groq.com/openai/v1|openai/gpt-oss-20b|key-3f1a…`
 */
export function budgetKey(
  scope: { endpoint: string; model: string; apiKey: string },
  digest: (text: string) => string,
): string {
  return `${endpointName(scope.endpoint)}|${scope.model}|key-${digest(`llm-budget:${scope.apiKey}`).slice(0, 24)}`;
}

/** @returns the endpoint as host and path, never its credentials (a budget's name, the doctor's table) */
export function endpointName(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.host}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return endpoint.replace(/^[a-z]+:\/\//i, "").replace(/^[^@/]*@/, "");
  }
}
