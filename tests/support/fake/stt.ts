/** @module A loopback Groq for speech-to-text: checks each upload, answers verbose_json timed by ffprobe. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One upload the fake received. */
export interface SttUpload {
  fileName: string;
  model: string;
  responseFormat: string;
  granularities: string[];
  bytes: Uint8Array;
  /** The file's length as ffprobe decodes it; undefined when it does not decode. */
  durationSeconds?: number;
  status: number;
}

/** What the fake answers one upload with, instead of the default. */
export type SttReply = { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

export interface FakeStt {
  /** The API's base URL as OpenAI-compatible clients take it (`http://127.0.0.1:PORT/openai/v1`), for LLM_BASE_URL. */
  baseUrl: string;
  uploads: SttUpload[];
  /** Replaces the answer of the next uploads (undefined: the default). */
  respondWith(reply: ((upload: SttUpload, index: number) => SttReply) | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

/** Extensions Groq's endpoint accepts. */
const EXTENSIONS = ["flac", "mp3", "mp4", "mpeg", "mpga", "m4a", "ogg", "opus", "wav", "webm"];
/** Length of each segment the fake answers. */
const SEGMENT_SECONDS = 5;

/**
 * @param llmBaseUrl where every other request goes (the fake LLM's base URL: its origin is kept, the path forwarded)
 * @param model the model uploads must name
 */
export function startFakeStt(llmBaseUrl: string, model = "whisper-large-v3-turbo"): FakeStt {
  const uploads: SttUpload[] = [];
  const dir = mkdtempSync(join(tmpdir(), "fake-stt-"));
  let responder: ((upload: SttUpload, index: number) => SttReply) | undefined;

  async function transcription(request: Request): Promise<Response> {
    const form = await request.formData().catch(() => undefined);
    const file = form?.get("file");
    if (!form || !(file instanceof Blob)) return error(400, "multipart body with a `file` expected");
    const upload: SttUpload = {
      fileName: (file as File).name ?? "",
      model: String(form.get("model") ?? ""),
      responseFormat: String(form.get("response_format") ?? ""),
      granularities: form.getAll("timestamp_granularities[]").map(String),
      bytes: new Uint8Array(await file.arrayBuffer()),
      status: 200,
    };
    const extension = /\.([a-z0-9]+)$/.exec(upload.fileName)?.[1] ?? "";
    upload.durationSeconds = probe(dir, uploads.length, extension, upload.bytes);
    uploads.push(upload);
    const fail = (status: number, message: string) => ((upload.status = status), error(status, message));
    if (!EXTENSIONS.includes(extension)) {
      return fail(400, `file must be one of the following types: ${EXTENSIONS.join(" ")}`);
    }
    if (upload.model !== model) return fail(404, `The model \`${upload.model}\` does not exist`);
    if (upload.responseFormat !== "verbose_json") {
      return fail(400, "response_format verbose_json expected by this fake");
    }
    if (upload.bytes.byteLength > 25 * 1024 * 1024) return fail(413, "Request Entity Too Large");
    if (upload.durationSeconds === undefined) return fail(400, "could not process file - is it a valid media file?");
    const custom = responder?.(upload, uploads.length - 1);
    if (custom) {
      upload.status = custom.status;
      return Response.json(custom.body ?? {}, { status: custom.status, headers: custom.headers });
    }
    return Response.json(verbose(upload.durationSeconds, uploads.length - 1), {
      headers: { "x-ratelimit-limit-requests": "2000", "x-ratelimit-remaining-requests": "1999" },
    });
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/openai/v1/audio/transcriptions" && request.method === "POST") {
        return await transcription(request);
      }
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      return await fetch(new URL(llmBaseUrl).origin + url.pathname + url.search, {
        method: request.method,
        headers: request.headers,
        body,
      });
    },
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/openai/v1`,
    uploads,
    respondWith: (next) => void (responder = next),
    reset() {
      uploads.length = 0;
      responder = undefined;
    },
    async close() {
      await server.stop(true);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** @returns the file's decoded length in seconds (ffprobe), or undefined when it does not decode */
export function probe(dir: string, index: number, extension: string, bytes: Uint8Array): number | undefined {
  const path = join(dir, `upload-${index}.${extension || "bin"}`);
  writeFileSync(path, bytes);
  const run = Bun.spawnSync(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]);
  const seconds = Number(run.stdout.toString().trim());
  return run.exitCode === 0 && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** verbose_json as Groq sends it: segments of 5 s covering the piece's real length, whisper's language name. */
function verbose(duration: number, index: number) {
  const segments = [];
  for (let start = 0, id = 0; start < duration; start += SEGMENT_SECONDS, id++) {
    const end = Math.min(duration, start + SEGMENT_SECONDS);
    segments.push({
      id,
      seek: 0,
      start,
      end,
      text: ` Rivers carry water, upload ${index} part ${id}.`,
      tokens: [1],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    });
  }
  return {
    task: "transcribe",
    language: "English",
    duration,
    text: segments.map((s) => s.text).join(""),
    segments,
    x_groq: { id: "req_fake" },
  };
}

function error(status: number, message: string): Response {
  return Response.json({ error: { message, type: "invalid_request_error" } }, { status });
}
