// Lighthouse's mobile profile on chapter 9, the chapter with the most experiments: the scores
// as the tool's own report gives them must stay at the book's targets (docs/web.md, "Fast on a
// phone"). The figures are simulated from a real load on a shared machine, so a chapter gets the
// best of up to three runs; each run's figures are printed. Needs a built site.

import test from "node:test";
import assert from "node:assert/strict";
import { audit, figures, keep } from "../lighthouse.mjs";

const PAGE = "chapters/09-realtime.html";
const TARGETS = { performance: 90, accessibility: 100, "best-practices": 95 };
const RUNS = 3;

const meets = (scores) => Object.entries(TARGETS).every(([c, least]) => scores[c] >= least);

test(`Lighthouse (mobile) on ${PAGE}: performance >= 90, accessibility 100, best practices >= 95`, async () => {
  let best = null;
  for (let i = 0; i < RUNS && !(best && meets(best.scores)); i++) {
    const [lhr] = await audit(PAGE);
    const run = figures(lhr);
    console.log(`# run ${i + 1}: ${JSON.stringify(run.scores)} ${JSON.stringify(run.metrics)}${run.failed.length ? ` failing audits: ${run.failed}` : ""}`);
    if (!best || run.scores.performance > best.scores.performance) best = { ...run, file: keep(lhr, PAGE) };
  }
  for (const [category, least] of Object.entries(TARGETS)) {
    assert.ok(best.scores[category] >= least, `${category} ${best.scores[category]} < ${least} (report: ${best.file}; failing audits: ${best.failed})`);
  }
});
