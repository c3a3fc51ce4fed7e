/** @module TypeBox schemas of `POST /chat`: the request body, the response body and errors by status. */
import { t } from "elysia";
import { LANGUAGES, MODEL_ID, OUTPUT_FORMATS, PROMPT_MAX_CODE_POINTS } from "../../domain/chat-request.ts";
import { CHAT_ERROR_CODES, type ChatErrorStatus, ERROR_STATUS } from "./error-status.ts";

/** The request body of `POST /chat`: validation and the OpenAPI document both come from it. */
export const ChatBody = t.Object(
  {
    url: t.String({
      description:
        "A YouTube video URL: youtube.com/watch?v=ID, youtu.be/ID, /shorts/ID, /embed/ID, /live/ID, /v/ID or " +
        "youtube-nocookie.com/embed/ID",
      examples: ["https://www.youtube.com/watch?v=GJLlxj_dtq8"],
    }),
    model: t.Optional(
      t.UnionEnum([MODEL_ID], {
        default: MODEL_ID,
        description: "Model used to generate the response; chat-1.0 is the only one",
      }),
    ),
    prompt: t.Optional(
      t.String({
        default: "summary",
        description:
          `A question or instruction about the video; "summary" (any case) or blank asks for a summary, and any ` +
          `other request about the whole video (key points, chapters, "what is it about") reads it whole too. Longer ` +
          `than ${PROMPT_MAX_CODE_POINTS} characters (Unicode code points) is cut to the first ` +
          `${PROMPT_MAX_CODE_POINTS}, not rejected; the response echoes the cut prompt.`,
        examples: ["What does the reviewer think of the keyboard?"],
      }),
    ),
    language: t.Optional(t.UnionEnum([...LANGUAGES], { default: "en", description: "Language of the response" })),
    output_format: t.Optional(
      t.UnionEnum([...OUTPUT_FORMATS], {
        default: "text",
        description: "text: plain text with no Markdown syntax; markdown: Markdown",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The response body of `POST /chat`: the request's fields as processed, the answer and the video's length. */
export const ChatResponseBody = t.Object({
  url: t.String({ description: "The video URL exactly as sent" }),
  model: t.String({ examples: [MODEL_ID] }),
  prompt: t.String({ description: "The prompt as processed: cut to 500 characters, or summary when defaulted" }),
  language: t.UnionEnum([...LANGUAGES]),
  output_format: t.UnionEnum([...OUTPUT_FORMATS]),
  output: t.String({ description: "The generated answer" }),
  video_duration: t.String({
    description:
      'Video length: whole minutes from 60 s on ("5 minutes", "1 minute"), else seconds ("45 seconds"); "unknown" ' +
      "when YouTube and the transcript do not tell",
    examples: ["5 minutes"],
  }),
});

export const ErrorBody = t.Object({
  error: t.Object({
    code: t.String({ description: "Stable machine-readable code" }),
    message: t.String({ description: "What went wrong and what to do, for people" }),
    request_id: t.String(),
  }),
});

export const CHAT_FIELDS = Object.keys(ChatBody.properties);

/**
 * The response body of `POST /chat` for each status it answers, so a typed client (Eden) knows every one:
 * the answer at 200, and the error body at the status of every code `POST /chat` can answer with, read from
 * {@link ERROR_STATUS}. Errors are answered by the app's error answer, so these add no run-time check; the
 * document's descriptions and examples of each come from `docs/errors.ts`.
 */
export const CHAT_RESPONSES = {
  200: ChatResponseBody,
  ...Object.fromEntries(CHAT_ERROR_CODES.map((code) => [ERROR_STATUS[code], ErrorBody])),
} as { 200: typeof ChatResponseBody } & Record<ChatErrorStatus, typeof ErrorBody>;
