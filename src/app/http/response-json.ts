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
 * @returns `toJson(response, answer, asked)`: the same text as `JSON.stringify(response)`,
 *   the output's escaped form kept per answer object (a cached answer is served again and again;
 *   kept weakly: it goes when the cache drops the answer), and the whole text while the same
 *   request object (`asked`, a remembered chat request) asks for that answer again
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
    const text = JSON.stringify;
    const json = `{"url":${text(response.url)},"model":${text(response.model)},"prompt":${
      text(response.prompt)
    },"language":${text(response.language)},"output_format":${
      text(response.output_format)
    },"output":${known.outputJson},"video_duration":${text(response.video_duration)}}`;
    if (asked !== undefined) {
      known.asked = asked;
      known.json = json;
    }
    return json;
  };
}
