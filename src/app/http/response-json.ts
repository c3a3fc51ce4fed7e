/** @module The JSON body of a chat answer, its output escaped once however often it is served. */
import type { ChatResponse } from "../../domain/chat.ts";

/**
 * @returns `toJson(response, answer)`: the same text as `JSON.stringify(response)`,
 *   the output's escaped form kept per answer object (a cached answer is served again and again;
 *   kept weakly: it goes when the cache drops the answer)
 */
export function createResponseJson(): (response: ChatResponse, answer: object) => string {
  const outputs = new WeakMap<object, { output: string; json: string }>();
  return (response, answer) => {
    let known = outputs.get(answer);
    if (known?.output !== response.output) {
      known = { output: response.output, json: JSON.stringify(response.output) };
      outputs.set(answer, known);
    }
    const text = JSON.stringify;
    return `{"url":${text(response.url)},"model":${text(response.model)},"prompt":${text(response.prompt)},"language":${
      text(response.language)
    },"output_format":${text(response.output_format)},"output":${known.json},"video_duration":${
      text(response.video_duration)
    }}`;
  };
}
