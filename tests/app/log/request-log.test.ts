/** @module Tests of the request log's YouTube fields: the route, the client that served, what the others answered. */
import { describe, expect, test } from "bun:test";
import { requestFields } from "../../../src/app/log/request-log.ts";

const request = new Request("http://localhost/chat?key=secret", { method: "POST" });

describe("requestFields()", () => {
  test("names the client that served and what each client answered, in one string", () => {
    const fields = requestFields(request, 200, "r1", 12.34, {
      youtubeRoute: "direct",
      youtubeRetries: 0,
      youtubeClient: "IOS",
      youtubeClientAnswers: { ANDROID: "retired", IOS: "ok" },
    });
    expect(fields).toMatchObject({
      youtube_route: "direct",
      youtube_client: "IOS",
      youtube_clients: "ANDROID=retired,IOS=ok",
    });
    expect(fields.path).toBe("/chat");
  });

  test("leaves the fields out when no client served or none was asked (a player answer reused)", () => {
    const fields = requestFields(request, 502, "r2", 1, { youtubeClient: undefined, youtubeClientAnswers: {} });
    expect(fields).not.toHaveProperty("youtube_client");
    expect(fields).not.toHaveProperty("youtube_clients");
  });
});
