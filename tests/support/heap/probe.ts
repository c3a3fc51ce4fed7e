/** @module Preloaded into a Bun service: on SIGUSR2, a full GC, then heap size and object counts by type. */
import { heapStats } from "bun:jsc";
import { writeFileSync } from "node:fs";

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  process.on("SIGUSR2", () => {
    Bun.gc(true);
    const stats = heapStats();
    writeFileSync(
      file,
      JSON.stringify({ heapSize: stats.heapSize, objectCount: stats.objectCount, types: stats.objectTypeCounts }),
    );
  });
}
