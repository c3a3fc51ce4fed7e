/** @module Starts Debian's headless Chromium with a throw-away profile for the browser tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium (`apt-get install chromium`); never a browser downloaded by Playwright. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags that keep Chromium from calling home: on a closed network those calls fail, and a test must see none. */
const QUIET_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium with a fresh, throw-away profile.
 *
 * @returns the browser context and a `close` that also removes the profile
 */
export async function startChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "docs-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: QUIET_FLAGS,
    viewport: { width: 1280, height: 900 },
    timeout: 30_000,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
