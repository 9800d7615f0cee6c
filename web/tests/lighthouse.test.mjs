// Lighthouse's mobile profile on chapter 9, the chapter with the most experiments, read from the
// tool's own report (docs/web.md, "Fast on a phone"). Accessibility and best practices are
// checks of the page, the same on any host, and must stay at the book's targets. The
// performance score is not asserted: Lighthouse simulates the phone by scaling this host's own
// CPU time, so on a shared machine it moves with the load by up to 15 points (docs/web.md,
// "Fast on a phone", has the measurements). What makes it and does not depend on the host is
// held to budgets instead: the bytes a load transfers, the DOM's size, the JavaScript it loads
// and does not use, text compression. `node web/lighthouse.mjs` measures the score.
// Needs a built site.

import test from "node:test";
import assert from "node:assert/strict";
import { audit, figures, keep } from "../lighthouse.mjs";

const PAGE = "chapters/09-realtime.html";
const TARGETS = { accessibility: 100, "best-practices": 95 };
/** Each audit's figure (`numericValue`) and the most it may be. */
const BUDGETS = {
  "total-byte-weight": 300 * 1024,
  "dom-size": 1500,
  "unused-javascript": 0,
  "uses-text-compression": 0,
};

test(`Lighthouse (mobile) on ${PAGE}: accessibility 100, best practices >= 95, the page's weight within its budgets`, async () => {
  const [lhr] = await audit(PAGE);
  const run = figures(lhr);
  const file = keep(lhr, PAGE);
  console.log(`# ${JSON.stringify(run.scores)} ${JSON.stringify(run.metrics)} benchmark index ${lhr.environment.benchmarkIndex}`);
  for (const [category, least] of Object.entries(TARGETS)) {
    assert.ok(run.scores[category] >= least, `${category} ${run.scores[category]} < ${least} (report: ${file}; failing audits: ${run.failed})`);
  }
  for (const [id, most] of Object.entries(BUDGETS)) {
    const value = lhr.audits[id].numericValue;
    assert.ok(value <= most, `${id} ${value} > ${most} (report: ${file})`);
  }
});
