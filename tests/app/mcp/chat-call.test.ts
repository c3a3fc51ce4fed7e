/** @module Tests of chat-call.ts on the real use case with in-memory ports: results, errors, progress. */
import { describe, expect, test } from "bun:test";
import type { Logger } from "../../../src/app/log/logger.ts";
import { callChatTool, type ChatCallDeps, MCP_IDENTITY } from "../../../src/app/mcp/chat-call.ts";
import type { ProgressStep } from "../../../src/app/mcp/progress.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { AnswerSpec, RateLimiter, WorkGate } from "../../../src/domain/ports.ts";
import { chatWithFakes, CountingLimiter, FakeTranscripts, FakeWriter } from "../../support/fake/ports.ts";

const URL = "https://www.youtube.com/watch?v=GJLlxj_dtq8";

/** A writer that reads a long video in `parts` parts before writing, as map-reduce reports it. */
class ReadingWriter extends FakeWriter {
  constructor(readonly parts: number) {
    super();
  }
  override async write(spec: AnswerSpec) {
    for (let done = 0; done <= this.parts; done++) spec.events?.progress({ stage: "reading", done, total: this.parts });
    spec.events?.progress({ stage: "writing" });
    return await super.write(spec);
  }
}

function setUp(
  options: { writer?: FakeWriter; transcripts?: FakeTranscripts; limiter?: RateLimiter; gate?: WorkGate } = {},
) {
  const logs: { level: string; event: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    info: (event, fields) => logs.push({ level: "info", event, fields }),
    warn: (event, fields) => logs.push({ level: "warn", event, fields }),
    error: (event, fields) => logs.push({ level: "error", event, fields }),
  };
  const { chat, transcripts, writer } = chatWithFakes(options);
  const deps: ChatCallDeps = {
    chat,
    rateLimiter: options.limiter ?? new CountingLimiter(100),
    logger,
    maxArgumentBytes: 16_384,
    requestTimeoutMs: 5_000,
    progressTimeoutMs: 9_000,
  };
  return { deps, logs, writer, transcripts };
}

describe("callChatTool", () => {
  test("answers with the text and the seven fields, the arguments mapped as POST /chat maps its body", async () => {
    const { deps, writer } = setUp();
    const result = await callChatTool(deps, { url: URL, prompt: "¿Qué opina?", language: "es" });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: "answer to ¿Qué opina? in es as text" }]);
    expect(result.structuredContent).toEqual({
      url: URL,
      model: "chat-1.0",
      prompt: "¿Qué opina?",
      language: "es",
      output_format: "text",
      output: "answer to ¿Qué opina? in es as text",
      video_duration: "5 minutes",
    });
    expect(writer.specs[0]!.intent).toBe("detail");
  });

  test("a failure of the work is a result with isError naming its code, logged with it", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.failWith = "transcript_unavailable";
    const { deps, logs } = setUp({ transcripts });
    const result = await callChatTool(deps, { url: URL });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toStartWith("transcript_unavailable: Fake failure transcript_unavailable.");
    expect(logs.find((l) => l.event === "mcp_call")!.fields).toMatchObject({
      video_id: "GJLlxj_dtq8",
      error: "transcript_unavailable",
    });
  });

  test("upstream_blocked carries its retry time", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.failWith = "upstream_blocked";
    const { deps } = setUp({ transcripts });
    expect((await callChatTool(deps, { url: URL })).content[0]!.text).toEndWith("Retry after 30 seconds.");
  });

  test("invalid arguments are refused before any work and cost nothing", async () => {
    const limiter = new CountingLimiter(100);
    const { deps, transcripts } = setUp({ limiter });
    const result = await callChatTool(deps, { url: URL, language: "fr" });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toStartWith('invalid_request: Field "language" must be one of en, hi, es, pt, ru');
    expect(transcripts.calls).toHaveLength(0);
    expect(limiter.counts.size).toBe(0);
  });

  test("arguments over MAX_BODY_BYTES are payload_too_large, counted in UTF-8 bytes, before any work", async () => {
    const limiter = new CountingLimiter(100);
    const { deps, transcripts } = setUp({ limiter });
    const result = await callChatTool(deps, { url: URL, prompt: "é".repeat(8_200) }); // 8,200 characters, 16,400 bytes
    expect(result.content[0]!.text).toStartWith(
      "payload_too_large: The tool's arguments are larger than 16384 bytes (MAX_BODY_BYTES)",
    );
    expect(transcripts.calls).toHaveLength(0);
    expect(limiter.counts.size).toBe(0);
    expect((await callChatTool(deps, { url: URL, prompt: "é".repeat(8_000) })).isError).toBeUndefined();
  });

  test("arguments nested too deep to serialise are invalid_request naming the field, not internal_error", async () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const { deps } = setUp();
    expect((await callChatTool(deps, { url: URL, prompt: deep })).content[0]!.text).toBe(
      'invalid_request: Field "prompt" must be a string; got an array.',
    );
  });

  test("RATE_LIMIT applies to the MCP identity: over it, rate_limited with the retry time", async () => {
    const limiter = new CountingLimiter(1);
    const { deps } = setUp({ limiter });
    expect((await callChatTool(deps, { url: URL })).isError).toBeUndefined();
    const refused = await callChatTool(deps, { url: URL });
    expect(refused.content[0]!.text).toStartWith("rate_limited: ");
    expect(refused.content[0]!.text).toEndWith("Retry after 60 seconds.");
    expect([...limiter.counts.keys()]).toEqual([MCP_IDENTITY.id]);
  });

  test("a call the server turns away as overloaded is given back to the rate limit", async () => {
    const limiter = new CountingLimiter(100);
    const gate: WorkGate = {
      run: async () => Promise.reject(new AppError("overloaded", "Busy", { retryAfterSeconds: 1 })),
    };
    const { deps } = setUp({ limiter, gate });
    expect((await callChatTool(deps, { url: URL })).content[0]!.text).toStartWith("overloaded: Busy.");
    expect(limiter.counts.get(MCP_IDENTITY.id)).toBe(0);
  });

  test("a bug is internal_error: logged in full, nothing of it in the result", async () => {
    const writer = new FakeWriter();
    writer.failWith = "bug";
    const { deps, logs } = setUp({ writer });
    const text = (await callChatTool(deps, { url: URL })).content[0]!.text;
    expect(text).toStartWith("internal_error: ");
    expect(text).not.toContain("secret");
    expect(String(logs.find((l) => l.event === "unhandled_error")!.fields!.error)).toContain("secret internal detail");
  });

  test("with a progress callback, the work's steps arrive increasing, with the total once known", async () => {
    const { deps } = setUp({ writer: new ReadingWriter(2) });
    const steps: ProgressStep[] = [];
    const result = await callChatTool(deps, { url: URL }, { progress: (step) => steps.push(step) });
    expect(result.isError).toBeUndefined();
    expect(steps.map((s) => [s.progress, s.total])).toEqual([[1, undefined], [2, 5], [3, 5], [4, 5], [5, 5]]);
  });

  test("an aborted signal cancels the work: the writer's signal aborts and the result is an error", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.delayMs = 50;
    let seen: AbortSignal | undefined;
    const writer = new FakeWriter();
    writer.write = async (spec) => {
      seen = spec.signal;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      throw new Error("not reached");
    };
    const { deps } = setUp({ transcripts, writer });
    const controller = new AbortController();
    const call = callChatTool(deps, { url: URL }, { signal: controller.signal });
    while (!seen) await Bun.sleep(5);
    controller.abort(new Error("cancelled by the client"));
    const result = await call;
    expect(seen.aborted).toBe(true);
    expect(result.isError).toBe(true);
  });
});
