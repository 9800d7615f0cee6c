// End-to-end tests of the folded results (book/widget/reveal.js): what answers a chapter's
// Predict block stays hidden until the experiment just above it has finished a run, or until
// the reader asks for it; printing shows it; both editions label it in their language.
// Needs a built site (`make book`).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SITE, start } from "../browser.mjs";
import { axe, finished, open, ready } from "../pages.mjs";
import { STRINGS } from "../../book/widget/strings.js";

// Chapter 2: one fast experiment (a 19 ms run) whose trace answers the Predict block above it.
const TOUR = "chapters/02-kernel-tour.html";
// Chapter 10: two predictions, with experiments that answer neither between them.
const RT = "chapters/10-deadline.html";
const EN = STRINGS.en;
const ZH = STRINGS["zh-CN"];

let site;
before(async () => {
  for (const page of [TOUR, RT, `zh-CN/${TOUR}`]) {
    if (!existsSync(join(SITE, page))) throw new Error(`${page} is not in the built book: run make book`);
  }
  site = await start();
});
after(async () => site?.stop());

const results = (page) => page.evaluate(() => [...document.querySelectorAll("details.rq-result")]
  .map((d) => ({ open: d.open, label: d.querySelector(":scope > summary").textContent })));
// The label follows the fold on its `toggle` event, which comes a task after `open` changes.
const settle = (page, want) => page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll("details.rq-result")]
  .map((d) => ({ open: d.open, label: d.querySelector(":scope > summary").textContent }))) === JSON.stringify(want), want, { timeout: 5000 })
  .catch(() => {}); // on a timeout the assertion that follows reports the difference
const run = (page, i) => page.locator(".rq-widget").nth(i).getByRole("button", { name: EN.run, exact: true }).click();

test("the result is hidden before a run and shown after it", async () => {
  const { page, errors } = await open(site, TOUR);
  await ready(page);
  const result = page.locator("details.rq-result").first();
  const trace = result.locator("pre").first();
  assert.deepEqual(await results(page), [{ open: false, label: EN.showResult }]);
  assert.equal(await trace.isVisible(), false, "the trace the prediction asks about is hidden before a run");
  assert.ok(await page.locator(".rq-experiment").first().isVisible(), "the experiment itself is in view");

  await run(page, 0);
  await finished(page, 0);
  await settle(page, [{ open: true, label: EN.hideResult }]);
  assert.equal(await trace.isVisible(), true, "the trace is shown once the run has finished");
  assert.deepEqual(await results(page), [{ open: true, label: EN.hideResult }]);
  assert.equal(await result.getByRole("status").textContent(), EN.resultShown, "the reader is told why it opened");
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Show the result opens it without a run, and it folds again", async () => {
  const { page, errors } = await open(site, TOUR);
  await ready(page);
  const summary = page.locator("details.rq-result > summary").first();
  await summary.click();
  await settle(page, [{ open: true, label: EN.hideResult }]);
  assert.equal(await page.locator("details.rq-result pre").first().isVisible(), true);
  assert.deepEqual(await results(page), [{ open: true, label: EN.hideResult }]);
  assert.equal(await page.locator(".rq-reveal-note").count(), 0, "no note: the reader opened it");
  await summary.click();
  await settle(page, [{ open: false, label: EN.showResult }]);
  assert.deepEqual(await results(page), [{ open: false, label: EN.showResult }]);
  assert.deepEqual(await page.evaluate(() => runqueue.experiments[0].panes.map((p) => p.state)), ["idle"], "nothing ran");
  assert.deepEqual(errors, []);
  await page.close();
});

test("only the experiment just above a result unfolds it", async () => {
  const { page, errors } = await open(site, RT);
  await ready(page);
  // The chapter has more results further down; only the second may open in this test.
  const only = (i, n) => Array.from({ length: n }, (_, j) => j === i);
  const folded = (await results(page)).map((r) => r.open);
  assert.ok(folded.length >= 2 && folded.every((open) => !open), `all folded at first: ${folded}`);
  // Widget 3 (a job overrunning its runtime) comes after the first result and answers no prediction.
  await run(page, 3);
  await finished(page, 3);
  assert.deepEqual((await results(page)).map((r) => r.open), only(-1, folded.length));
  // Widget 5 (Dhall's set on two harts) is the one just above the second result.
  await run(page, 5);
  await finished(page, 5);
  await page.waitForFunction(() => document.querySelectorAll("details.rq-result")[1].open, null, { timeout: 5000 });
  assert.deepEqual((await results(page)).map((r) => r.open), only(1, folded.length));
  assert.deepEqual(errors, []);
  await page.close();
});

test("printing shows every result", async () => {
  const { page, errors } = await open(site, TOUR);
  await ready(page);
  const trace = page.locator("details.rq-result pre").first();
  assert.equal(await trace.isVisible(), false);
  // The print style sheet unfolds a closed result and hides its toggle...
  await page.emulateMedia({ media: "print" });
  assert.equal(await trace.isVisible(), true, "a printed page shows the result");
  assert.equal(await page.locator("details.rq-result > summary").first().isVisible(), false);
  await page.emulateMedia({ media: "screen" });
  assert.equal(await trace.isVisible(), false);
  // ...and printing opens it for browsers whose print styles cannot, then folds it back.
  await page.evaluate(() => dispatchEvent(new Event("beforeprint")));
  assert.deepEqual((await results(page)).map((r) => r.open), [true]);
  await page.evaluate(() => dispatchEvent(new Event("afterprint")));
  assert.deepEqual((await results(page)).map((r) => r.open), [false]);
  // The print page, every chapter at once, shows every result.
  const print = await site.context.newPage();
  await print.goto(site.base + "print.html");
  await print.waitForFunction(() => document.querySelectorAll("details.rq-result").length > 0);
  await print.waitForFunction(() => [...document.querySelectorAll("details.rq-result")].every((d) => d.open), null, { timeout: 10_000 });
  await print.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Chinese edition labels the result in Chinese, with and without the script", async () => {
  const html = readFileSync(join(SITE, "zh-CN", TOUR), "utf8");
  assert.ok(html.includes(`<summary>${ZH.showResult}</summary>`), "the built page is labelled before any script runs");
  assert.ok(!html.includes(`<summary>${EN.showResult}</summary>`));
  const { page, errors } = await open(site, `zh-CN/${TOUR}`);
  await ready(page);
  assert.deepEqual(await results(page), [{ open: false, label: ZH.showResult }]);
  await page.locator(".rq-widget").first().getByRole("button", { name: ZH.run, exact: true }).click();
  await finished(page, 0);
  await settle(page, [{ open: true, label: ZH.hideResult }]);
  assert.deepEqual(await results(page), [{ open: true, label: ZH.hideResult }]);
  assert.equal(await page.locator(".rq-reveal-note").textContent(), ZH.resultShown);
  assert.deepEqual(errors, []);
  await page.close();
});
