// Debian's Chromium driven by playwright-core, serving the built book from a free local port.
// Shared by the end-to-end tests and the benchmark driver.

import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.mjs";

export const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
export const SITE = join(ROOT, "book/build");

// Flags from the toolchain notes: without the background-networking ones Chromium's own
// connections get refused in bulk on the build machines.
export const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

/**
 * Serves the site and starts Chromium on a fresh profile. Service workers are blocked unless
 * `serviceWorkers: "allow"`: the book's would fetch a whole edition in the background of every
 * test (the offline test allows them).
 */
export async function start({ serviceWorkers = "block" } = {}) {
  const server = await serve(SITE, 0);
  const profile = mkdtempSync(join(tmpdir(), "rq-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: FLAGS,
    headless: true,
    acceptDownloads: true,
    serviceWorkers,
    viewport: { width: 1400, height: 1000 },
  });
  const base = `http://127.0.0.1:${server.address().port}/`;
  return {
    context,
    base,
    async stop() {
      await context.close();
      await new Promise((r) => server.close(r));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
