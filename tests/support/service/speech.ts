/** @module The service with STT=groq over loopback fakes (YouTube with audio, Groq), and a proxy of its own. */
import http from "node:http";
import { type FakeLlm, startFakeLlm } from "../fake/llm.ts";
import { type FakeStt, startFakeStt } from "../fake/stt.ts";
import { type FakeYoutubeAudio, startFakeYoutubeAudio } from "../fake/youtube-audio.ts";
import { type RunningService, startService } from "./process.ts";
import { KEY } from "./youtube.ts";

export { KEY };

/** The service under test with its loopback upstreams. */
export interface SpeechRig {
  youtube: FakeYoutubeAudio;
  llm: FakeLlm;
  stt: FakeStt;
  service: RunningService;
  /** The service's settings, to start another instance on the same fakes. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts the fakes and the real service with speech-to-text on, pieces of at
 * most 30,000 bytes (the 72 KB WebM fixture makes 3+), caches on.
 */
export async function startSpeechRig(env: Record<string, string> = {}): Promise<SpeechRig> {
  const youtube = startFakeYoutubeAudio();
  const llm = startFakeLlm();
  const stt = startFakeStt(llm.baseUrl);
  const settings = {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake_for_speech_tests",
    GROQ_BASE_URL: stt.baseUrl,
    GROQ_MODEL: "fake-model",
    YOUTUBE_TIMEOUT_MS: "5000",
    STT: "groq",
    STT_CHUNK_BYTES: "30000",
    ...env,
  };
  const service = await startService(settings);
  return {
    youtube,
    llm,
    stt,
    service,
    env: settings,
    async close() {
      await service.stop();
      await youtube.close();
      await stt.close();
      await llm.close();
    },
  };
}

/**
 * A forward proxy for plain-HTTP targets whose outgoing connections leave
 * from `localAddress` (127.0.0.2): what the target sees is the route's own
 * address, as a real egress proxy's.
 */
export function startBoundProxy(localAddress = "127.0.0.2") {
  const server = http.createServer((request, response) => {
    const target = new URL(request.url ?? "");
    const upstream = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method: request.method,
      headers: request.headers,
      localAddress,
    }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  const ready = new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    ready,
    url: () => `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
