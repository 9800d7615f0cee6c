// Lighthouse (the npm package, pinned in package.json) on a page of the built book, with
// Debian's Chromium and Lighthouse's default profile: a mid-range phone on a slow 4G network,
// throttling simulated from an unthrottled load. `node web/lighthouse.mjs [PAGE] [RUNS]`
// prints the scores and metrics of each run and writes the last report to
// lighthouse/PAGE.json in cargo's target folder; web/tests/lighthouse.test.mjs holds the
// scores to the book's targets.

import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { FLAGS, SITE } from "./browser.mjs";
import { serve } from "./serve.mjs";
import { targetDir } from "../scripts/target-dir.mjs";

export const CATEGORIES = ["performance", "accessibility", "best-practices"];
const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
  "speed-index", "interactive", "total-byte-weight", "dom-size", "unused-javascript"];

/** The figures of one report: each category's score (0-100) and each metric as the tool shows it. */
export function figures(lhr) {
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(lhr.categories[c].score * 100)]));
  const metrics = Object.fromEntries(METRICS.map((m) => [m, lhr.audits[m].displayValue ?? String(lhr.audits[m].numericValue)]));
  const failed = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "notApplicable")
    .map((a) => a.id);
  return { scores, metrics, failed, warnings: lhr.runWarnings };
}

/** Runs Lighthouse `runs` times on `page` (a path in the built book); returns every run's report. */
export async function audit(page, runs = 1) {
  const server = await serve(SITE, 0);
  const url = `http://127.0.0.1:${server.address().port}/${page}`;
  const reports = [];
  try {
    for (let i = 0; i < runs; i++) {
      // A fresh browser each run: nothing cached, no service worker from the run before.
      const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM ?? "/usr/bin/chromium", chromeFlags: FLAGS });
      try {
        const result = await lighthouse(url, { port: chrome.port, logLevel: "error", onlyCategories: CATEGORIES, output: "json" });
        reports.push(result.lhr);
      } finally {
        await chrome.kill();
      }
    }
  } finally {
    await new Promise((r) => server.close(r));
  }
  return reports;
}

/** Writes `lhr` to lighthouse/NAME.json in the target folder and returns the path. */
export function keep(lhr, page) {
  const dir = join(targetDir(), "lighthouse");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${basename(page, ".html")}.json`);
  writeFileSync(file, JSON.stringify(lhr));
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [page = "chapters/09-realtime.html", runs = "1"] = process.argv.slice(2);
  const reports = await audit(page, Number(runs));
  for (const lhr of reports) console.log(JSON.stringify(figures(lhr), null, 2));
  console.log(`report: ${keep(reports.at(-1), page)}`);
}
