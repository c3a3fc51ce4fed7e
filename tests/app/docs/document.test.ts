/** @module Tests of the OpenAPI document at `GET /swagger/json`: validity, body schema, errors and streaming. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { describe, expect, test } from "bun:test";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Value } from "@sinclair/typebox/value";
import { createChatRequest, LANGUAGES } from "../../../src/domain/chat-request.ts";
import type { ChatService } from "../../../src/domain/chat.ts";
import { CHAT_FIELDS, ChatBody, ChatResponseBody, ErrorBody } from "../../../src/app/contract/chat-schema.ts";
import { CHAT_ERROR_DOCS } from "../../../src/app/docs/errors.ts";
import { ERROR_STATUS } from "../../../src/app/contract/error-status.ts";
import { createHttpApp } from "../../../src/app/http/http-app.ts";
import { silentLogger } from "../../../src/app/log/logger.ts";

const unusedChat: ChatService = {
  answer: async () => Promise.reject(new Error("not called by these tests")),
  cached: async () => undefined,
};
const app = createHttpApp({
  chat: unusedChat,
  apiKeys: { verify: async () => undefined },
  rateLimiter: { take: async () => ({ allowed: true, remaining: 0, resetSeconds: 0 }) },
  maxBodyBytes: 16_384,
  logger: silentLogger,
});

async function documentOf(): Promise<any> {
  const response = await app.fetch(new Request("http://localhost/swagger/json"));
  expect(response.status).toBe(200);
  return response.json();
}

describe("GET /swagger/json", () => {
  test("the 200 of POST /chat also describes the text/event-stream answer: its four events, their data schemas, and an example a parser reads", async () => {
    const document = await documentOf();
    const content = document.paths["/chat"].post.responses["200"].content["text/event-stream"];
    const events = content.schema["x-events"];
    expect(Object.keys(events)).toEqual(["progress", "delta", "done", "error"]);
    for (const ref of Object.values(events) as { $ref: string }[]) {
      expect(document.components.schemas[ref.$ref.split("/").at(-1)!]).toBeDefined();
    }
    const { createParser } = await import("eventsource-parser");
    const read: { event?: string; data: string }[] = [];
    createParser({ onEvent: (event) => read.push(event) }).feed(content.examples.summary.value);
    expect(read.map((event) => event.event)).toEqual(["progress", "progress", "delta", "delta", "done"]);
    const done = JSON.parse(read.at(-1)!.data);
    expect(Value.Check(ChatResponseBody, done)).toBe(true);
    expect(read.filter((event) => event.event === "delta").map((event) => JSON.parse(event.data).text).join("")).toBe(
      done.output,
    );
    expect(document.paths["/chat"].post.parameters.map((p: { name: string }) => p.name)).toContain("Accept");
  });

  test("is a valid OpenAPI 3.1 document by @readme/openapi-parser, with no key sent", async () => {
    const document = await documentOf();
    expect(document.openapi).toStartWith("3.1.");
    const result = await validate(structuredClone(document));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  test("the validator is real: it refuses a document with a broken reference and a missing info", async () => {
    const document = await documentOf();
    delete document.info;
    document.paths["/chat"].post.responses["400"].content["application/json"].schema = {
      $ref: "#/components/schemas/Nope",
    };
    const result = await validate(document);
    expect(result.valid).toBe(false);
  });

  test("lists POST /chat only: no docs path, no other method on /chat", async () => {
    const document = await documentOf();
    expect(Object.keys(document.paths)).toEqual(["/chat"]);
    expect(Object.keys(document.paths["/chat"])).toEqual(["post"]);
  });

  test("the request body is ChatBody: every field with its enum and default, unknown fields refused", async () => {
    const schema = (await documentOf()).paths["/chat"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(schema.properties)).toEqual(CHAT_FIELDS);
    expect(schema.required).toEqual(["url"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.model).toMatchObject({ enum: ["chat-1.0"], default: "chat-1.0" });
    expect(schema.properties.language).toMatchObject({ enum: [...LANGUAGES], default: "en" });
    expect(schema.properties.output_format).toMatchObject({ enum: ["text", "markdown"], default: "text" });
    expect(schema.properties.prompt.default).toBe("summary");
  });

  test("explains the 500-character cut of prompt in the field and in the operation", async () => {
    const post = (await documentOf()).paths["/chat"].post;
    const prompt = post.requestBody.content["application/json"].schema.properties.prompt;
    expect(prompt.description).toContain("cut to the first 500");
    expect(prompt.description).toContain("code points");
    expect(post.description).toContain("cut to its first 500");
  });

  test("declares the x-api-key header scheme and requires it for the API", async () => {
    const document = await documentOf();
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
    expect(document.security).toEqual([{ apiKey: [] }]);
  });

  test("documents every error of the README's Errors table that POST /chat can answer, under its status, with an example body", async () => {
    const responses = (await documentOf()).paths["/chat"].post.responses;
    expect(Object.keys(responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "408",
      "413",
      "415",
      "422",
      "429",
      "500",
      "502",
      "503",
      "504",
    ]);
    for (const code of Object.keys(CHAT_ERROR_DOCS) as (keyof typeof CHAT_ERROR_DOCS)[]) {
      const response = responses[String(ERROR_STATUS[code])];
      const example = response.content["application/json"].examples[code];
      expect(example, code).toBeDefined();
      expect(Value.Check(ErrorBody, example.value)).toBe(true);
      expect(example.value.error.code).toBe(code);
      expect(response.description).toContain(`\`${code}\``);
    }
    expect(Object.keys(responses["422"].content["application/json"].examples)).toEqual([
      "video_unavailable",
      "video_age_restricted",
      "video_unplayable",
      "transcript_unavailable",
    ]);
    expect(Object.keys(responses["503"].content["application/json"].examples)).toEqual([
      "upstream_blocked",
      "overloaded",
    ]);
    expect(responses["429"].headers["Retry-After"]).toBeDefined();
    expect(responses["503"].headers["Retry-After"]).toBeDefined();
  });

  test("429 tells rate_limited from quota_exceeded; the quota headers are declared on the 200 and the 429", async () => {
    const document = await documentOf();
    const responses = document.paths["/chat"].post.responses;
    expect(Object.keys(responses["429"].content["application/json"].examples)).toEqual([
      "rate_limited",
      "quota_exceeded",
    ]);
    for (const name of ["Quota-Limit", "Quota-Remaining", "Quota-Reset", "Quota-Policy"]) {
      expect(document.components.headers[name].description.length).toBeGreaterThan(20);
      expect(responses["200"].headers[name]).toEqual({ $ref: `#/components/headers/${name}` });
      expect(responses["429"].headers[name]).toEqual({ $ref: `#/components/headers/${name}` });
    }
  });

  test("its request examples are valid requests and its response example a valid response", async () => {
    const post = (await documentOf()).paths["/chat"].post;
    const examples = Object.values(post.requestBody.content["application/json"].examples) as { value: unknown }[];
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const { value } of examples) {
      expect(Value.Check(ChatBody, value)).toBe(true);
      expect(() => createChatRequest(value as never)).not.toThrow();
    }
    for (
      const { value } of Object.values(post.responses["200"].content["application/json"].examples) as {
        value: unknown;
      }[]
    ) {
      expect(Value.Check(ChatResponseBody, value)).toBe(true);
    }
  });
});
