// `node web/a11y-survey.mjs`: axe-core's findings on every page of both editions of the built
// book, counted per rule, before and after running the page's first experiment (the figures of
// docs/web.md, "Accessibility"). It fails nothing: web/tests/a11y.test.mjs does that. Prints a
// table and writes it as JSON to a11y-survey.json in cargo's target folder.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { start } from "./browser.mjs";
import { axeViolations, finished, open, settle } from "./pages.mjs";
import { EDITIONS, sitePages } from "./site-pages.mjs";
import { targetDir } from "../scripts/target-dir.mjs";

/** Adds one page's violations to `tally` (rule -> {nodes, pages, where}). */
function count(tally, violations, path) {
  for (const v of violations) {
    const row = (tally[v.id] ??= { nodes: 0, pages: 0, where: [] });
    row.nodes += v.targets.length;
    row.pages += 1;
    row.where.push(`${path}: ${v.targets.join(", ")}`);
  }
}

const site = await start();
const report = {};
try {
  for (const { lang, prefix } of EDITIONS) {
    const before = {};
    const after = {};
    const pages = sitePages(prefix);
    for (const path of pages) {
      const { page } = await open(site, path);
      const hasWidgets = await settle(page);
      count(before, await axeViolations(page), path);
      if (hasWidgets) {
        await page.locator(".rq-widget").first().locator(".rq-run").click();
        await finished(page, 0);
        await page.waitForTimeout(300);
        count(after, await axeViolations(page), path);
      }
      await page.close();
    }
    report[lang] = { pages: pages.length, before, after };
  }
} finally {
  await site.stop();
}
for (const [lang, { pages, before, after }] of Object.entries(report)) {
  console.log(`${lang}: ${pages} pages; rule: nodes (pages) before a run | after the first experiment's run`);
  for (const id of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const cell = (r) => (r ? `${r.nodes} (${r.pages})` : "0");
    console.log(`  ${id.padEnd(32)} ${cell(before[id]).padEnd(12)} | ${cell(after[id])}`);
  }
}
writeFileSync(join(targetDir(), "a11y-survey.json"), `${JSON.stringify(report, null, 2)}\n`);
