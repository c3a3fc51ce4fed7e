/** @module One keep-alive HTTP/1.1 load connection on a raw socket, one request at a time. */
import { connect, type Socket } from "node:net";

/** One response as the load client sees it. */
export interface LoadResponse {
  status: number;
  /** The error code of a JSON error body, when there is one. */
  code?: string;
  ms: number;
}

/**
 * One keep-alive HTTP/1.1 connection that sends a request, waits for its
 * response (Content-Length bodies, which is what the service sends) and
 * only then sends the next. A raw socket, so N connections are exactly N
 * sockets whatever the runtime's fetch pool does.
 */
export class LoadConnection {
  #socket: Socket;
  #buffer = Buffer.alloc(0);
  #waiting: ((response: { status: number; body: string }) => void) | undefined;
  #failed: ((error: Error) => void) | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#parse();
    });
    socket.on("error", (error) => this.#failed?.(error));
    socket.on("close", () => this.#failed?.(new Error("Connection closed")));
  }

  /** @returns a connected connection to `host:port` */
  static open(host: string, port: number): Promise<LoadConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, noDelay: true }, () => resolve(new LoadConnection(socket)));
      socket.once("error", reject);
    });
  }

  /**
   * Sends `POST path` with a JSON body.
   *
   * @throws {Error} when no response came within `timeoutMs` (a hang) or the connection failed
   */
  async post(path: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<LoadResponse> {
    const started = performance.now();
    const head = [
      `POST ${path} HTTP/1.1`,
      "host: 127.0.0.1",
      "content-type: application/json",
      `content-length: ${Buffer.byteLength(body)}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No response within ${timeoutMs} ms`)), timeoutMs);
      this.#waiting = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.#failed = (error) => {
        clearTimeout(timer);
        reject(error);
      };
    });
    this.#socket.write(`${head.join("\r\n")}\r\n\r\n${body}`);
    const { status, body: text } = await response;
    let code: string | undefined;
    if (status !== 200) {
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
      } catch {
        code = "unparsable";
      }
    }
    return { status, code, ms: performance.now() - started };
  }

  close(): void {
    this.#failed = undefined;
    this.#socket.destroy();
  }

  #parse(): void {
    const end = this.#buffer.indexOf("\r\n\r\n");
    if (end < 0 || !this.#waiting) return;
    const head = this.#buffer.subarray(0, end).toString("latin1");
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.#buffer.length < end + 4 + length) return;
    const body = this.#buffer.subarray(end + 4, end + 4 + length).toString("utf8");
    this.#buffer = this.#buffer.subarray(end + 4 + length);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    this.#failed = undefined;
    waiting({ status: Number(head.slice(9, 12)), body });
  }
}
