/** @module Tests of `parseVideoId()` on accepted and refused URLs, and of its memo of recent results. */
import { describe, expect, test } from "bun:test";
import { parseVideoId } from "../../src/domain/video-id.ts";

const ID = "GJLlxj_dtq8";

describe("parseVideoId()", () => {
  test.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://youtube.com/watch?v=${ID}`,
    `http://www.youtube.com/watch?v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}`,
    `https://music.youtube.com/watch?v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}&t=42s`,
    `https://www.youtube.com/watch?v=${ID}&list=PL123&index=2`,
    `https://www.youtube.com/watch?feature=share&v=${ID}`,
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?t=42`,
    `https://youtu.be/${ID}?si=abcDEF`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://youtube.com/shorts/${ID}?feature=share`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube.com/live/${ID}`,
    `https://www.youtube.com/v/${ID}`,
    `https://www.youtube-nocookie.com/embed/${ID}`,
    `https://youtube-nocookie.com/embed/${ID}?start=10`,
    `HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}#comments`,
  ])("accepts %s", (url) => {
    expect(parseVideoId(url)).toBe(ID);
  });

  test("keeps ids with - and _", () => {
    expect(parseVideoId("https://youtu.be/a-b_c-d_e-f")).toBe("a-b_c-d_e-f");
  });

  test.each([
    ID,
    `www.youtube.com/watch?v=${ID}`,
    `ftp://www.youtube.com/watch?v=${ID}`,
    `javascript:alert(1)//youtube.com/watch?v=${ID}`,
    `https://www.youtube.com.evil.example/watch?v=${ID}`,
    `https://youtube.com.evil.example/watch?v=${ID}`,
    `https://evil.example/?u=https://www.youtube.com/watch?v=${ID}`,
    `https://notyoutube.com/watch?v=${ID}`,
    `https://youtu.be.evil.example/${ID}`,
    `https://evilyoutu.be/${ID}`,
    `https://www.youtube.com@evil.example/watch?v=${ID}`,
    `https://user:pass@www.youtube.com/watch?v=${ID}`,
    `https://www.youtube.com:8443/watch?v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}x`,
    `https://www.youtube.com/watch?v=GJLlxj_dtq`,
    `https://www.youtube.com/watch?v=GJLlxj!dtq8`,
    `https://www.youtube.com/watch`,
    `https://www.youtube.com/channel/UCVYamHliCI9rw1tHR1xbkfw`,
    `https://www.youtube.com/playlist?list=PL123`,
    `https://www.youtube.com/shorts/${ID}/extra`,
    `https://youtu.be/`,
    `https://youtu.be/${ID}/extra`,
    `https://www.youtube-nocookie.com/watch?v=${ID}`,
    `https://img.youtube.com/vi/${ID}/0.jpg`,
    `https://127.0.0.1/watch?v=${ID}`,
    "",
    "not a url",
  ])("refuses %s", (url) => {
    expect(parseVideoId(url)).toBeUndefined();
  });
});

describe("parseVideoId() on repeated inputs (recent results are kept)", () => {
  test("gives the same answer every time, for URLs it accepts and refuses alike, past the memo's bound", () => {
    const accepted = "https://youtu.be/GJLlxj_dtq8";
    const refused = "https://youtube.com.evil.example/watch?v=GJLlxj_dtq8";
    for (let round = 0; round < 3; round++) {
      expect(parseVideoId(accepted)).toBe("GJLlxj_dtq8");
      expect(parseVideoId(refused)).toBeUndefined();
      // More distinct inputs than the memo keeps, so the two above are dropped and parsed again.
      for (let i = 0; i < 1_100; i++) {
        expect(parseVideoId(`https://youtu.be/${String(i).padStart(11, "a")}`)).toBe(String(i).padStart(11, "a"));
      }
    }
    const long = `https://www.youtube.com/watch?v=GJLlxj_dtq8&${"x".repeat(400)}`;
    expect(parseVideoId(long)).toBe("GJLlxj_dtq8");
    expect(parseVideoId(long)).toBe("GJLlxj_dtq8");
  });
});
