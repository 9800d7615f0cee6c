// End-to-end tests of the widget's controls (issue #15): the page-turning keys during a run,
// tunables the kernel would refuse, the budget, compare mode's Pause/Step/Resume when one pane
// is ahead of the other, a double click on Run, a second run that differs in any setting, and
// the lab schedulers kept to the lab pages. Needs a built site.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { start } from "../browser.mjs";
import { finished, open as openPage, ready } from "../pages.mjs";

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

const CH3 = "chapters/03-fifo-rr.html";
const states = (page) => page.evaluate(() => runqueue.experiments[0].panes.map((p) => p.state));

test("the arrow keys do not turn the page while a run goes on or a widget has focus", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  await w.getByLabel("Speed").selectOption("1000000");
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes.every((p) => p.state === "running"));
  await page.keyboard.press("ArrowRight");
  await page.locator("main h1").first().click(); // focus leaves the widget; the run goes on
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft");
  await page.waitForTimeout(500);
  assert.match(page.url(), /03-fifo-rr\.html/, "still on the chapter");
  assert.deepEqual(await states(page), ["running", "running"]);
  await w.getByRole("button", { name: "Pause" }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes.every((p) => p.state === "paused"));
  await w.getByLabel("Scheduler", { exact: true }).focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(300);
  assert.match(page.url(), /03-fifo-rr\.html/, "a focused widget keeps the keys");
  await page.locator("main h1").first().click();
  await Promise.all([page.waitForURL(/04-sjf\.html/), page.keyboard.press("ArrowRight")]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a tunable the kernel would refuse goes back to the value the run uses, with the range beside it", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  await w.getByText("Tunables", { exact: true }).click();
  const box = w.getByLabel(/^tick_us/);
  await box.fill("5");
  await box.press("Tab");
  assert.equal(await box.inputValue(), "1000", "the box shows what the kernel will use");
  const note = w.locator('.rq-field:has([data-tunable="tick_us"]) .rq-invalid');
  assert.match(await note.innerText(), /tick_us=5 is outside 100\.\.100000; the run uses 1000/);
  assert.equal(await page.evaluate(() => runqueue.experiments[0].panes[0].bootargs), "sched=rr workload=fairness-unequal smp=1");
  await box.fill("500");
  await box.press("Tab");
  assert.equal(await note.innerText(), "");
  assert.match(await page.evaluate(() => runqueue.experiments[0].panes[0].bootargs), /tick_us=500/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a run that hits its budget offers a button that runs it again with a larger one", async () => {
  const { page, errors } = await openPage(site, `${CH3}?e1.max=300000&e1.vs=`);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 0);
  const alert = w.locator(".rq-alert");
  assert.match(await alert.innerText(), /did not shut down within 300,000 instructions/);
  assert.doesNotMatch(await alert.innerText(), /Raise the instruction budget/);
  await alert.getByRole("button", { name: "Run again with a budget of 3,000,000 instructions" }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes[0].instret > 300000, null, { timeout: 20_000 });
  assert.match(page.url(), /e1\.max=3000000/, "the link keeps the new budget");
  assert.deepEqual(errors, []);
  await page.close();
});

test("compare mode: Pause leaves a finished pane finished, and Resume after Step goes on where each pane is", async () => {
  // The second run is a tenth as long, so it finishes first.
  const { page, errors } = await openPage(site, `${CH3}?e1.vs=${encodeURIComponent("fifo wl.run_ms=20")}`);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  for (let i = 0; i < 60 && (await states(page))[1] !== "done"; i++) {
    await w.getByRole("button", { name: "Step 1 ms" }).click();
    await page.waitForFunction(() => runqueue.experiments[0].panes.every((p) => !["booting", "running"].includes(p.state)));
  }
  assert.deepEqual(await states(page), ["paused", "done"], "Step finished the short run only");
  const before = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => p.instret));
  await w.getByLabel("Speed").selectOption("1000000");
  await w.getByRole("button", { name: "Resume", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes[0].state === "running");
  await w.getByRole("button", { name: "Pause" }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes[0].state === "paused");
  await page.waitForTimeout(300);
  assert.deepEqual(await states(page), ["paused", "done"], "the finished pane is not relabelled paused");
  const after = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => p.instret));
  assert.ok(after[0] > before[0], "the long run went on from where it was");
  assert.equal(after[1], before[1], "the finished run was not started again");
  assert.match(await w.locator(".rq-status").innerText(), /finished with exit code 0/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a double click on Run starts one worker per pane", async () => {
  const { page, errors } = await openPage(site, CH3);
  await page.addInitScript(() => {
    const Real = Worker;
    globalThis.workersStarted = 0;
    globalThis.Worker = class extends Real {
      constructor(...args) { super(...args); globalThis.workersStarted++; }
    };
  });
  await page.reload();
  await ready(page);
  await page.locator(".rq-widget").first().getByRole("button", { name: "Run", exact: true }).dblclick();
  await finished(page, 0);
  assert.equal(await page.evaluate(() => workersStarted), 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the second run can differ in harts or a tunable, chosen in the widget", async () => {
  const { page, errors } = await openPage(site, `${CH3}?e1.vs=`);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  const words = w.getByLabel("Second run also changes");
  assert.equal(await words.isVisible(), false, "no second run, no box for it");
  await w.getByLabel("Compare with").selectOption("=");
  await words.fill("smp=2 wl.tasks=3");
  await words.press("Tab");
  assert.deepEqual(await page.evaluate(() => runqueue.experiments[0].panes.map((p) => p.heading.textContent)),
    ["Scheduler: rr", "Scheduler: rr, smp=2 wl.tasks=3"]);
  assert.match(page.url(), /e1\.vs=smp%3D2\+wl\.tasks%3D3/);
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 0);
  const results = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => JSON.parse(p.result)));
  assert.deepEqual(results.map((r) => [r.sched, r.smp, r.tasks.length]), [["rr", 1, 4], ["rr", 2, 3]]);
  await words.fill("smp=99");
  await words.press("Tab");
  assert.match(await w.locator(".rq-alert").innerText(), /smp=99 must be a number of harts/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the lab schedulers are offered on the lab pages only", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  const options = await page.locator(".rq-widget").first().getByLabel("Scheduler", { exact: true }).locator("option").allTextContents();
  assert.ok(options.some((o) => o.startsWith("cfs")));
  assert.deepEqual(options.filter((o) => o.startsWith("lab-")), []);
  const vs = await page.locator(".rq-widget").first().getByLabel("Compare with").locator("option").allTextContents();
  assert.deepEqual(vs.filter((o) => o.startsWith("lab-")), []);
  await page.goto(`${site.base}${CH3}?e1=sched=lab-sjf`);
  await ready(page);
  assert.match(await page.locator(".rq-widget .rq-alert").first().innerText(), /sched=lab-sjf is unknown/);
  assert.deepEqual(errors, []);
  await page.close();
});
