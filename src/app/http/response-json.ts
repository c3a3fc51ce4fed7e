/** @module The JSON body of a chat answer, its output escaped once however often it is served. */
import type { ChatResponse } from "../../domain/chat.ts";

/** What is kept per answer object: its output escaped, and the last whole body with the request it echoes. */
interface Kept {
  output: string;
  outputJson: string;
  asked?: object;
  json?: string;
}

/**
 * @returns `toJson(response, answer, asked)`: the text of `JSON.stringify(response)`, the output's escaped
 *   form kept per answer object (a cached answer is served again and again; kept weakly: it goes when the
 *   cache drops the answer), and the whole text while the same request object (`asked`, a remembered chat
 *   request) asks for that answer again
 */
export function createResponseJson(): (response: ChatResponse, answer: object, asked?: object) => string {
  const kept = new WeakMap<object, Kept>();
  return (response, answer, asked) => {
    let known = kept.get(answer);
    if (known?.output !== response.output) {
      known = { output: response.output, outputJson: JSON.stringify(response.output) };
      kept.set(answer, known);
    } else if (asked !== undefined && known.asked === asked) {
      return known.json!;
    }
    const json = stringify(response, known.outputJson);
    if (asked !== undefined) {
      known.asked = asked;
      known.json = json;
    }
    return json;
  };
}

/**
 * What `JSON.stringify(response)` writes, field by field in the object's order (so a field added to
 * the response is written too), with the output's escaped form given.
 */
function stringify(response: ChatResponse, outputJson: string): string {
  let json = "";
  for (const field of Object.keys(response)) {
    const value = field === "output" ? outputJson : JSON.stringify(response[field as keyof ChatResponse]);
    // Left out as JSON.stringify leaves them out: undefined, a function, a symbol.
    if (value !== undefined) json += `${json === "" ? "{" : ","}${JSON.stringify(field)}:${value}`;
  }
  return json === "" ? "{}" : `${json}}`;
}
