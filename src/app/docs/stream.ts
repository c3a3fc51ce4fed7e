/** @module The OpenAPI description and schemas of the streamed (Server-Sent Events) answer. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { ChatResponseBody, ErrorBody } from "../contract/chat-schema.ts";

type Json = Record<string, any>;

/** The streamed answer in the operation's description (README, Streaming). */
export const STREAM_DESCRIPTION =
  `**Streaming**: send \`Accept: text/event-stream\` to get the answer as Server-Sent Events as it is written
(same body, same key). Refusals before the work starts (401, 415, 413, 400, 429, 503 \`overloaded\`) stay the usual
JSON errors; otherwise a \`200\` \`text/event-stream\` opens at once,
with these events, each one line of JSON in \`data:\`:

- \`progress\`: where the work is: \`{"stage":"transcript"}\`, \`{"stage":"transcribing","done":1,"total":3}\`
  (a video without captions whose audio is transcribed, \`STT=groq\`), \`{"stage":"reading","done":3,"total":8}\`
  (a long video's parts), \`{"stage":"writing"}\`;
- \`delta\`: \`{"text":"..."}\`, the next piece of the answer; the deltas, concatenated, equal \`done.output\`
  byte for byte.
  Each piece is final: language, \`text\` format (no Markdown) and timestamps are checked before it goes out;
- \`done\`: the body a non-streamed request gets (all seven fields); the last event;
- \`error\`: the usual error body, for a failure once the stream is open (\`video_unavailable\`, \`upstream_*\`, ...;
  \`overloaded\` when the server is shutting down); the last event.

A \`: keep-alive\` comment line goes out after every 15 s of silence. A streamed request may run up to
\`STREAM_TIMEOUT_MS\` (10 minutes).
Swagger UI waits for the whole stream; try it with \`curl -N\` instead.`;

const EXAMPLE_STREAM = [
  'event: progress\ndata: {"stage":"transcript"}',
  'event: progress\ndata: {"stage":"writing"}',
  'event: delta\ndata: {"text":"The reviewer finds the keyboard cover good to type on [2:31]."}',
  'event: delta\ndata: {"text":"\\n\\nBattery life is modest."}',
  `event: done\ndata: ${
    JSON.stringify({
      url: "https://www.youtube.com/watch?v=GJLlxj_dtq8",
      model: "chat-1.0",
      prompt: "summary",
      language: "en",
      output_format: "text",
      output: "The reviewer finds the keyboard cover good to type on [2:31].\n\nBattery life is modest.",
      video_duration: "5 minutes",
    })
  }`,
].join("\n\n") + "\n\n";

/** The `text/event-stream` content of the 200: each event's `data`, by event name. */
export function streamContent(): Json {
  return {
    schema: {
      type: "string",
      description: "Server-Sent Events; each event's `data` is one of the `StreamEvent` schemas, by its `event` name",
      "x-events": {
        progress: { $ref: "#/components/schemas/StreamProgress" },
        delta: { $ref: "#/components/schemas/StreamDelta" },
        done: { $ref: "#/components/schemas/StreamDone" },
        error: { $ref: "#/components/schemas/StreamError" },
      },
    },
    examples: { summary: { summary: "A short answer, streamed", value: EXAMPLE_STREAM } },
  };
}

/** Schemas of the events' data, for `components.schemas`. */
export function streamSchemas(): Json {
  return {
    StreamProgress: {
      type: "object",
      description: "`event: progress`",
      properties: {
        stage: { type: "string", enum: ["transcript", "transcribing", "reading", "writing"] },
        done: {
          type: "integer",
          minimum: 0,
          description:
            "Parts of a long video read so far (stage `reading`), or audio pieces transcribed (stage `transcribing`)",
        },
        total: {
          type: "integer",
          minimum: 1,
          description: "Parts to read (stage `reading`), or audio pieces to transcribe (stage `transcribing`)",
        },
      },
      required: ["stage"],
    },
    StreamDelta: {
      type: "object",
      description: "`event: delta`: the next piece of `done.output`",
      properties: { text: { type: "string" } },
      required: ["text"],
    },
    StreamDone: {
      ...JSON.parse(JSON.stringify(ChatResponseBody)),
      description: "`event: done`: the non-streamed 200 body; the last event",
    },
    StreamError: {
      ...JSON.parse(JSON.stringify(ErrorBody)),
      description: "`event: error`: the usual error body; the last event",
    },
  };
}
