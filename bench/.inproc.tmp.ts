import { runService, type Runtime } from "../src/app/start.ts";
import { startFakeYoutube } from "../tests/support/fake-youtube.ts";
const KEY = "bench-key-0123456789";
type Handler = (request: Request) => Promise<Response>;
const youtube = startFakeYoutube();
let handler: Handler | undefined;
const runtime: Runtime = { name: "bench", env: { API_KEYS: KEY, YOUTUBE_BASE_URL: youtube.origin, LOG_FORMAT: "json", PORT: "3000", ...(process.env.RL ? { RATE_LIMIT: "100000000/min" } : {}) }, stdoutIsTerminal: false, print: () => {}, printError: (l) => console.error(l), exit: (c) => process.exit(c),
  serve: (o) => { if (o.port === 3000) handler = o.fetch; return { port: o.port, stop: async () => {}, abort: async () => {} }; }, onStopSignal: () => {} };
const origWrite = process.stdout.write.bind(process.stdout);
(process.stdout as any).write = () => true;
(console as any).log = () => {};
await runService(runtime);
const ask = async () => { const r = await handler!(new Request("http://127.0.0.1:3000/chat", { method: "POST", headers: { "content-type": "application/json", "x-api-key": KEY }, body: '{"url":"https://youtu.be/GJLlxj_dtq8"}' })); if (r.status !== 200) throw new Error(String(r.status) + await r.text()); await r.text(); };
await ask();
const N = Number(process.env.N ?? 100000);
for (let k = 0; k < 3; k++) {
  const before = process.cpuUsage();
  for (let d = 0; d < N; d += 16) { await Promise.all(Array.from({ length: 16 }, ask)); await new Promise((r) => setImmediate(r)); }
  const u = process.cpuUsage(before);
  process.stderr.write(`µs/request ${((u.user + u.system) / N).toFixed(2)}\n`);
}
await youtube.close();
process.exit(0);
