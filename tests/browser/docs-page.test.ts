/** @module Browser tests of the docs page in Chromium: rendering under its CSP, a real call, a streamed answer. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { ROOT, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { type Browser, startChromium } from "./chromium.ts";

const KEY = "browser-key-0123456789";
const OUTPUT_DIR = `${ROOT}test-output/`;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

let youtube: FakeYoutube;
let llm: FakeLlm;
let service: RunningService;
let browser: Browser;
let page: Page;
/** Every address the page asked for, and every console line about a blocked resource. */
const requested: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  service = await startService({
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake_for_browser",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
  });
  browser = await startChromium();
  page = await browser.context.newPage();
  page.on("request", (request) => requested.push(request.url()));
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to|CSP violation|Failed to load resource/i.test(message.text())) {
      refused.push(message.text());
    }
  });
  // Reports each CSP refusal on the console, where the listener above collects it.
  await page.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  mkdirSync(OUTPUT_DIR, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await youtube?.close();
  await llm?.close();
});

describe(`the docs page in Chromium (${targetFromEnv()})`, () => {
  test(
    "renders POST /chat from files the service serves itself, under its CSP, with no request to another host",
    async () => {
      const response = await page.goto(`${service.url}/swagger`, { waitUntil: "load", timeout: 30_000 });
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
      const operation = page.locator(".opblock-post").first();
      await operation.waitFor({ state: "visible", timeout: 30_000 });
      expect(await operation.locator(".opblock-summary-path").innerText()).toBe("/chat");
      expect(await page.locator(".info .title").innerText()).toContain("Video Chat Service");
      await page.screenshot({ path: `${OUTPUT_DIR}docs-page-loaded.png` });
      expect(offLoopback(requested)).toEqual([]);
      expect(requested.some((url) => url.endsWith("/swagger/json"))).toBe(true);
      expect(refused).toEqual([]);
    },
    60_000,
  );

  test("a key and a video URL entered in the page give a 200 with video_duration", async () => {
    await authorize(page, KEY);
    const operation = page.locator(".opblock-post").first();
    await operation.locator("button.try-out__btn").click();
    const body = operation.locator("textarea.body-param__text");
    await body.fill(
      JSON.stringify({ url: watchUrl("normal"), prompt: "What does the reviewer think of the keyboard?" }, null, 2),
    );
    await operation.locator("button.execute").click();

    const live = operation.locator(".live-responses-table tr.response");
    await live.waitFor({ state: "visible", timeout: 30_000 });
    expect((await live.locator(".response-col_status").innerText()).trim()).toBe("200");
    const shown = await live.locator(".response-col_description pre").first().innerText();
    expect(JSON.parse(shown)).toMatchObject({
      url: watchUrl("normal"),
      model: "chat-1.0",
      video_duration: "5 minutes",
    });
    expect(llm.calls.length).toBeGreaterThanOrEqual(1);

    await live.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUTPUT_DIR}docs-page-response.png` });
    await operation.screenshot({ path: `${OUTPUT_DIR}docs-page-operation.png` });
    expect(offLoopback(requested)).toEqual([]);
    expect(refused).toEqual([]);
  }, 60_000);

  test("the page reads a streamed answer with fetch, event by event, under its CSP", async () => {
    llm.respondWith(() => ({
      content:
        "The reviewer likes the keyboard cover and the screen of this small tablet [0:01].\n\nBattery life is modest.",
      chunkChars: 6,
      chunkDelayMs: 20,
    }));
    const read = await page.evaluate(
      async ({ key, url }) => {
        const response = await fetch("/chat", {
          method: "POST",
          headers: { accept: "text/event-stream", "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify({ url, prompt: "streamed in the browser" }),
        });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        let reads = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          reads++;
          buffer += value;
        }
        const events = buffer.split("\n\n").filter((block) => block.startsWith("event:")).map((block) => ({
          event: /^event: (.*)$/m.exec(block)![1]!,
          data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!),
        }));
        return { status: response.status, type: response.headers.get("content-type"), events, reads };
      },
      { key: KEY, url: watchUrl("normal") },
    );
    llm.respondWith(undefined);
    expect(read.status).toBe(200);
    expect(read.type).toStartWith("text/event-stream");
    const names = read.events.map((e) => e.event);
    expect(names[0]).toBe("progress");
    expect(names.at(-1)).toBe("done");
    expect(read.reads).toBeGreaterThan(1); // the body came in pieces, not as one buffer at the end
    const deltas = read.events.filter((e) => e.event === "delta").map((e) => e.data.text).join("");
    expect(deltas).toBe(read.events.at(-1)!.data.output);
    expect(refused).toEqual([]);
  }, 60_000);
});

/** Enters the key in Swagger UI's Authorize dialog. */
async function authorize(page: Page, key: string): Promise<void> {
  await page.locator(".auth-wrapper button.authorize").click();
  const dialog = page.locator(".dialog-ux .modal-ux");
  await dialog.locator("input[type=text], input[type=password]").first().fill(key);
  await dialog.locator("button.authorize").click();
  await dialog.locator("button.btn-done").click();
}

/** @returns the addresses whose host is not a loopback one (data: and blob: never leave the page) */
function offLoopback(urls: string[]): string[] {
  return urls.filter((url) => {
    const parsed = new URL(url);
    if (parsed.protocol === "data:" || parsed.protocol === "blob:") return false;
    return !LOOPBACK.has(parsed.hostname);
  });
}
