/** @module Property-based fuzzing of the running service's HTTP surface: bodies, URLs, prompts, headers, sizes. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isUtf8 } from "node:buffer";
import { buildRequest } from "../support/raw-http.ts";
import { entriesArb, type Entry, isLabelled, writeEntries } from "./body-arbitrary.ts";
import {
  checkTwice,
  expectHealthy,
  FIXED_SEED,
  type Harness,
  KEY,
  NORMAL_ID,
  NORMAL_URL,
  outbound,
  processedPrompt,
  RANDOM_SEED,
  send,
  sendRaw,
  startHarness,
} from "./harness.ts";
import { promptArb } from "./prompt-arbitrary.ts";
import { rawCaseArb } from "./raw-arbitrary.ts";
import { labelledUrl } from "./url-arbitrary.ts";

/**
 * Property-based fuzzing of the running service (a real process, loopback
 * fakes of YouTube and the LLM). Each property runs with a fixed seed and a
 * random one; both are printed, and `FUZZ_SEED=<seed> bun test tests/fuzz`
 * replays the random one. A failure is shrunk by fast-check; once fixed, its
 * counterexample is kept in `regressions.test.ts`.
 */
const MAX_BODY = 16_384;
const LANGUAGES = ["en", "hi", "es", "pt", "ru"];
const FORMATS = ["text", "markdown"];
const JSON_HEADERS = { "content-type": "application/json", "x-api-key": KEY };
let h: Harness;

beforeAll(async () => {
  console.log(`fuzz seeds: fixed=${FIXED_SEED} random=${RANDOM_SEED} (replay with FUZZ_SEED=${RANDOM_SEED})`);
  h = await startHarness();
});
afterAll(async () => {
  console.log(`fuzz: ${h?.sent ?? 0} requests sent`);
  await h?.close();
});

/** What the contract says a body (given as wire entries, last key wins) must get. */
function expected(entries: Entry[]): { status: number[]; prompt?: string; echo?: Record<string, string> } {
  const last = new Map(entries);
  const bad = { status: [400] };
  if ([...last.keys()].some((k) => !["url", "model", "prompt", "language", "output_format"].includes(k))) return bad;
  const url = last.get("url");
  if (!isLabelled(url) || url.label === "invalid") return bad;
  const prompt = last.get("prompt");
  if (last.has("model") && last.get("model") !== "chat-1.0") return bad;
  if (last.has("prompt") && typeof prompt !== "string") return bad;
  if (last.has("language") && !LANGUAGES.includes(last.get("language") as string)) return bad;
  if (last.has("output_format") && !FORMATS.includes(last.get("output_format") as string)) return bad;
  const ok = url.id === NORMAL_ID ? 200 : 422;
  const echo = {
    url: url.url,
    model: "chat-1.0",
    prompt: processedPrompt(prompt as string | undefined),
    language: (last.get("language") as string) ?? "en",
    output_format: (last.get("output_format") as string) ?? "text",
  };
  return { status: url.label === "either" ? [400, ok] : [ok], echo };
}

function postJson(text: BodyInit, headers: Record<string, string> = JSON_HEADERS) {
  return send(h, "/chat", { method: "POST", headers, body: text });
}

describe("fuzzing the HTTP surface of the running service", () => {
  test("JSON bodies of every shape and type get the status the contract names", async () => {
    const style = fc.record({ escapeKeys: fc.boolean(), space: fc.constantFrom("", " ", "\n\t", "\r\n  ") });
    await checkTwice(fc.tuple(entriesArb, style), 350, async ([entries, s]) => {
      const text = writeEntries(entries, s);
      const want = expected(entries);
      const got = await postJson(text);
      expect(want.status, `${text.slice(0, 300)} -> ${got.status} ${got.text.slice(0, 200)}`).toContain(got.status);
      if (got.status === 200) expect(got.json).toMatchObject(want.echo!);
    });
    await expectHealthy(h);
  }, 60_000);

  test("bodies that are not a JSON object (other JSON values, bytes, invalid UTF-8) are 400", async () => {
    const bytes = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v !== "object" || v === null || Array.isArray(v)).map((v) =>
        new TextEncoder().encode(JSON.stringify(v))
      ),
      fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => new Uint8Array(b)),
      fc.tuple(fc.nat(40), fc.uint8Array({ minLength: 1, maxLength: 3 }).map((b) => b.map((x) => x | 0x80))).map(
        ([at, junk]) => {
          const valid = new TextEncoder().encode(JSON.stringify({ url: NORMAL_URL, prompt: "hello there" }));
          const cut = Math.min(at + 8, valid.length - 3);
          return new Uint8Array([...valid.subarray(0, cut), ...junk, ...valid.subarray(cut)]);
        },
        // High bytes can still spell a valid character (C2 AD is a soft hyphen, which a URL's host drops): only
        // invalid UTF-8 is this case's.
      ).filter((body) => !isUtf8(body)),
      fc.constantFrom(
        "",
        " ",
        "{",
        "}",
        "{}",
        "[]",
        "null",
        '{"url":}',
        '{"url":"x",}',
        "{'url':'x'}",
        "\uFEFF{}",
        '{"url":"\\ud800"}',
        '{"url":"\\x41"}',
        "NaN",
        '{"url":1e999}',
      ).map((s) => new TextEncoder().encode(s)),
    );
    await checkTwice(bytes, 200, async (body) => {
      const got = await postJson(body);
      expect(got.status, `${Buffer.from(body).toString("hex").slice(0, 200)} -> ${got.text.slice(0, 200)}`).toBe(400);
    });
    await expectHealthy(h);
  }, 60_000);

  test("URL look-alikes are refused without any outbound request; real video URLs are served", async () => {
    await checkTwice(labelledUrl, 300, async (u) => {
      const before = outbound(h);
      const got = await postJson(JSON.stringify({ url: u.url }));
      const ok = u.id === NORMAL_ID ? 200 : 422;
      const want = u.label === "valid" ? [ok] : u.label === "invalid" ? [400] : [400, ok];
      expect(want, `${JSON.stringify(u.url)} -> ${got.status}`).toContain(got.status);
      if (got.status === 400) expect(outbound(h)).toBe(before);
      if (got.status === 200) expect((got.json as { url: string }).url).toBe(u.url);
    });
    await expectHealthy(h);
  }, 60_000);

  test("prompts of every Unicode category around 500 code points are echoed cut to exactly the first 500", async () => {
    await checkTwice(promptArb, 150, async (prompt) => {
      const text = JSON.stringify({ url: NORMAL_URL, prompt });
      const got = await postJson(text);
      if (new TextEncoder().encode(text).length > MAX_BODY) return void expect(got.status).toBe(413);
      expect(got.status, got.text.slice(0, 200)).toBe(200);
      const echoed = (got.json as { prompt: string }).prompt;
      expect(echoed).toBe(processedPrompt(prompt));
      expect(Array.from(echoed).length).toBeLessThanOrEqual(500);
    });
    await expectHealthy(h);
  }, 60_000);

  test("huge strings and deep nesting get 400 or 413 at the limit, never a crash", async () => {
    const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);
    const bodyArb = fc.oneof(
      fc.integer({ min: MAX_BODY - 64, max: MAX_BODY + 64 }).map((size) => ({
        kind: "padded",
        text: padTo({ url: NORMAL_URL, prompt: "" }, size),
      })),
      fc.integer({ min: 17_000, max: 300_000 }).map((size) => ({
        kind: "huge",
        text: padTo({ url: NORMAL_URL, prompt: "" }, size),
      })),
      fc.integer({ min: 1, max: 7_000 }).map((d) => ({
        kind: "deep",
        text: `{"url":${JSON.stringify(NORMAL_URL)},"prompt":${nested(d, "[", "]")}}`,
      })),
      fc.integer({ min: 1, max: 3_000 }).map((d) => ({
        kind: "deep",
        text: `{"url":${JSON.stringify(NORMAL_URL)},"x":${nested(d, '{"a":', "}").replace(/\{"a":\}/, '{"a":1}')}}`,
      })),
      fc.integer({ min: 1, max: 16_000 }).map((d) => ({ kind: "deep", text: nested(d, "[", "]") })),
      fc.integer({ min: 1, max: 4_000 }).map((n) => ({
        kind: "keys",
        text: `{"url":${JSON.stringify(NORMAL_URL)},${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(",")}}`,
      })),
      fc.integer({ min: 1, max: 15_000 }).map((n) => ({
        kind: "long-key",
        text: `{"url":${JSON.stringify(NORMAL_URL)},${JSON.stringify("k".repeat(n))}:1}`,
      })),
    );
    await checkTwice(fc.tuple(bodyArb, fc.boolean()), 60, async ([body, chunked]) => {
      const bytes = new TextEncoder().encode(body.text);
      const got = await postJson(chunked ? streamOf(bytes) : bytes);
      const want = bytes.length > MAX_BODY ? 413 : body.kind === "padded" ? 200 : 400;
      expect(got.status, `${body.kind} ${bytes.length} bytes chunked=${chunked}: ${got.text.slice(0, 200)}`).toBe(want);
    });
    await expectHealthy(h);
  }, 60_000);

  test(
    "methods, paths, keys, content types and request ids: the order of checks (route, key, type, size, JSON) and the request id echo",
    async () => {
      const arb = fc.record({
        method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
        path: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom("/chat", "/chat?x=1", "/chat#frag") },
          fc.constantFrom(
            "/",
            "/chat/x",
            "/Chat",
            "/CHAT",
            "/chats",
            "/v1/chat",
            "/%63hat",
            "/chat%00",
            "/api/chat",
            "/swagger/x",
          ),
          fc.webPath().filter((p) => p.startsWith("/") && !p.startsWith("//") && !p.startsWith("/swagger")),
        ),
        key: fc.oneof(
          { weight: 4, arbitrary: fc.constant(KEY) },
          fc.constantFrom(
            undefined,
            "",
            " ",
            `${KEY}x`,
            KEY.slice(0, -1),
            KEY.toUpperCase(),
            `${KEY},${KEY}`,
            "k".repeat(4000),
          ),
          printable(40),
        ),
        type: fc.oneof(
          { weight: 4, arbitrary: fc.constant("application/json") },
          fc.constantFrom(
            undefined,
            "",
            "APPLICATION/JSON; charset=UTF-8",
            "application/json;charset=latin1",
            "application/json ; x=y",
            "text/plain",
            "application/jsonx",
            "application/json-patch+json",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "text/json",
            "*/*",
            "application/*",
          ),
          printable(30),
        ),
        body: fc.constantFrom("ok", "ok", "bad-json", "too-big", "empty"),
        requestId: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), printable(140)), {
          nil: undefined,
        }),
      });
      await checkTwice(arb, 300, async (r) => {
        const headers: Record<string, string> = {};
        if (r.key !== undefined) headers["x-api-key"] = r.key;
        if (r.type !== undefined) headers["content-type"] = r.type;
        if (r.requestId !== undefined) headers["x-request-id"] = r.requestId;
        const text = {
          ok: JSON.stringify({ url: NORMAL_URL }),
          "bad-json": "{url:",
          "too-big": padTo({ url: NORMAL_URL, prompt: "" }, MAX_BODY + 100),
          empty: "",
        }[r.body];
        const bodyless = r.method === "GET" || r.method === "HEAD";
        let got;
        try {
          got = await send(h, r.path, {
            method: r.method,
            headers,
            body: bodyless ? undefined : new TextEncoder().encode(text),
          });
        } catch (error) {
          if (error instanceof TypeError && /header/i.test(String(error))) return; // fetch refuses the header value itself
          throw error;
        }
        const pathname = new URL(r.path, "http://x").pathname;
        const route = pathname === "/chat" || pathname === "/chat/" ? (r.method === "POST" ? "ok" : 405) : 404;
        const mediaType = r.type?.split(";")[0]?.trim().toLowerCase();
        const sentKey = (r.key ?? "").trim();
        const want = route !== "ok"
          ? route
          : sentKey !== KEY
          ? 401
          : mediaType !== "application/json"
          ? 415
          : r.body === "too-big"
          ? 413
          : r.body !== "ok"
          ? 400
          : 200;
        // A sane caller id is echoed (fetch trims the value); anything else is replaced by a fresh UUID.
        const sentId = r.requestId?.trim();
        const sane = sentId !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(sentId);
        if (sane) expect(got.headers.get("x-request-id")).toBe(sentId);
        else {expect(got.headers.get("x-request-id")).toMatch(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
          );}
        expect(
          got.status,
          `${r.method} ${r.path} key=${JSON.stringify(r.key?.slice(0, 50))} type=${
            JSON.stringify(r.type)
          } body=${r.body}: ${got.text.slice(0, 200)}`,
        ).toBe(want);
      });
      await expectHealthy(h);
    },
    60_000,
  );

  test("raw requests with odd methods, duplicated headers and bogus lengths never get a 500 or a hang", async () => {
    await checkTwice(rawCaseArb(KEY, JSON.stringify({ url: NORMAL_URL })), 250, async (c) => {
      await sendRaw(h, buildRequest(c.method, c.target, c.headers, c.body), {
        halfClose: c.halfClose,
        head: c.method === "HEAD",
      });
      await expectHealthy(h);
    });
  }, 60_000);
});

/** Header values fetch sends as they are (control bytes are the raw-socket test's business). */
function printable(maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });
}

/** A JSON body of exactly `size` bytes, padded in `prompt`. */
function padTo(base: { url: string; prompt: string }, size: number): string {
  const empty = new TextEncoder().encode(JSON.stringify(base)).length;
  return JSON.stringify({ ...base, prompt: "p".repeat(Math.max(0, size - empty)) });
}

/** A request body sent chunked, in pieces of 4 KiB. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 4096));
      at += 4096;
    },
  });
}
