/** @module Tests of the request log's YouTube fields: the route, the client that served, what the others answered. */
import { describe, expect, test } from "bun:test";
import { observeWork, type RequestFacts, requestFields } from "../../../src/app/log/request-log.ts";

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

describe("observeWork()", () => {
  test("notes what the adapters report on the request's facts: the last try's route and clients, the writer's requests", () => {
    const facts: RequestFacts = { keyId: "k1" };
    const observer = observeWork(facts);
    observer.route?.("direct", 0);
    observer.clients?.("ANDROID", { ANDROID: "blocked" });
    observer.route?.("127.0.0.1:8080", 1);
    observer.clients?.("IOS", { ANDROID: "retired", IOS: "ok" });
    observer.request?.();
    observer.writerRequests?.(1);
    expect(requestFields(request, 200, "r3", 1, facts)).toMatchObject({
      key_id: "k1",
      youtube_route: "127.0.0.1:8080",
      youtube_retries: 1,
      youtube_client: "IOS",
      youtube_clients: "ANDROID=retired,IOS=ok",
      extra_youtube_requests: 1,
    });
  });

  test("a writer that sent nothing itself says 0; one that says nothing leaves the field out", () => {
    const told: RequestFacts = {};
    observeWork(told).writerRequests?.(0);
    expect(requestFields(request, 200, "r4", 1, told).extra_youtube_requests).toBe(0);
    expect(requestFields(request, 200, "r5", 1, {})).not.toHaveProperty("extra_youtube_requests");
  });
});
