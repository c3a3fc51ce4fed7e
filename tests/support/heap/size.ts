/** @module Starts the service so that its heap can be measured after a full GC (Bun probe, Deno inspector). */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { connectInspector } from "./inspector.ts";
import { rssMiB } from "../rss.ts";
import { ROOT, type RunningService, startService, type Target } from "../service/process.ts";

/** A running service and how to measure it. */
export interface MeasuredService {
  service: RunningService;
  /** What is measured: the JS heap after a full GC (bun, deno), or the process tree's RSS (the binary, which takes no preload). */
  measures: "heap" | "rss";
  /** @returns bytes: heap after a full GC, or RSS */
  bytes(): Promise<number>;
}

/** Starts `target` with `env`, measurable. */
export async function startMeasured(target: Target, env: Record<string, string>): Promise<MeasuredService> {
  if (target === "bun") {
    const probeFile = `/tmp/heap-probe-${process.pid}-${Date.now()}.json`;
    const command = [process.execPath, "--preload", `${ROOT}tests/support/heap/probe.ts`, `${ROOT}src/app/main-bun.ts`];
    const service = await startService({ ...env, MEMORY_PROBE_FILE: probeFile }, { target, command });
    const bytes = async (): Promise<number> => {
      rmSync(probeFile, { force: true });
      service.process.kill("SIGUSR2");
      for (let i = 0; i < 200 && !existsSync(probeFile); i++) await Bun.sleep(25);
      await Bun.sleep(50);
      return (JSON.parse(readFileSync(probeFile, "utf8")) as { heapSize: number }).heapSize;
    };
    return { service, measures: "heap", bytes };
  }
  if (target === "deno") {
    const port = 9400 + ((process.pid + Date.now()) % 500);
    const command = [
      `${ROOT}node_modules/.bin/deno`,
      "run",
      "--v8-flags=--optimize-for-size",
      `--inspect=127.0.0.1:${port}`,
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      `${ROOT}src/app/main-deno.ts`,
    ];
    const service = await startService(env, { target, command });
    const bytes = async (): Promise<number> => {
      const inspector = await connectInspector(port);
      try {
        await inspector.gc();
        return Number(await inspector.evaluate("Deno.memoryUsage().heapUsed"));
      } finally {
        inspector.close();
      }
    };
    return { service, measures: "heap", bytes };
  }
  const service = await startService(env, { target });
  return { service, measures: "rss", bytes: async () => rssMiB(service.process.pid) * 1024 * 1024 };
}
