// End-to-end tests of the page around the widget (issue #15): a compare widget on a phone,
// the page's responsiveness during the default runs, and the book opened from disk. Needs a
// built site.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SITE, start } from "../browser.mjs";
import { finished, open as openPage, ready } from "../pages.mjs";

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

const CH3 = "chapters/03-fifo-rr.html";
const PHONE = { width: 390, height: 844 };
// A frame longer than this is a long task the reader feels (the threshold).
const LONG_TASK_MS = 100;

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("a compare widget on a phone stacks its panes, with nothing clipped or overlapping", async () => {
  const { page, errors } = await openPage(site, CH3);
  await page.setViewportSize(PHONE);
  await page.reload(); // mdBook decides at load whether the sidebar fits
  await ready(page);
  const w = page.locator(".rq-widget").first();
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 0);
  await page.waitForTimeout(400);
  const boxes = await page.evaluate(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y + scrollY, width: r.width, height: r.height }; };
    const widget = document.querySelector(".rq-widget");
    const visible = (sel, root) => [...root.querySelectorAll(sel)].filter((e) => e.checkVisibility());
    return {
      pageWidth: document.documentElement.scrollWidth,
      all: visible(".rq-field, .rq-buttons button, .rq-pane, .rq-terminal, .rq-chart, .rq-table, .rq-status", widget)
        .map((e) => ({ what: e.className, ...box(e) })),
      panes: [...widget.querySelectorAll(".rq-pane")].map((pane) => ({
        pane: box(pane),
        parts: visible(".rq-terminal, .rq-chart, .rq-table, .rq-pane-title", pane).map((e) => ({ what: e.className, ...box(e) })),
      })),
    };
  });
  assert.ok(boxes.pageWidth <= PHONE.width, `the page scrolls sideways: ${boxes.pageWidth} px`);
  for (const b of boxes.all) {
    assert.ok(b.x >= 0 && b.x + b.width <= PHONE.width + 0.5, `${b.what} at ${b.x}..${b.x + b.width} is outside the screen`);
    assert.ok(b.width > 0 && b.height > 0, `${b.what} is empty`);
  }
  const [a, b] = boxes.panes;
  assert.ok(!overlap(a.pane, b.pane) && b.pane.y >= a.pane.y + a.pane.height, "the second pane is below the first");
  assert.ok(a.pane.width > PHONE.width * 0.7, `a pane is ${a.pane.width} px wide`);
  for (const { parts } of boxes.panes) {
    parts.forEach((p, i) => parts.slice(i + 1).forEach((q) => assert.ok(!overlap(p, q), `${p.what} overlaps ${q.what}`)));
  }
  await w.screenshot({ path: join(process.env.RQ_SHOTS ?? "/tmp", "phone-compare.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// The longest long task of one run of the chapter's first widget, with a line for the log.
async function longestTask(chapter) {
  const { page, errors } = await openPage(site, chapter);
  await page.addInitScript(() => {
    globalThis.longTasks = [];
    new PerformanceObserver((list) => globalThis.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: "longtask" });
  });
  await page.reload();
  await ready(page);
  // A widget on screen loads its terminal's and charts' libraries while the page is idle, before
  // a reader presses Run: that one-off load is not part of a run.
  await page.locator(".rq-widget").first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => globalThis.Chart, null, { timeout: 20_000 });
  await page.evaluate(() => { longTasks.length = 0; });
  await page.locator(".rq-widget").first().getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 0);
  await page.waitForTimeout(500);
  const tasks = await page.evaluate(() => longTasks);
  assert.deepEqual(errors, []);
  await page.close();
  const longest = Math.max(0, ...tasks);
  return { longest, line: `${chapter}: ${tasks.length} long tasks, ${Math.round(tasks.reduce((a, b) => a + b, 0))} ms, longest ${Math.round(longest)} ms` };
}

// A long task is wall time, so on a crowded machine (the build machines run several builds on
// two cores) a short task can be long when the page's thread is not scheduled: each chapter
// gets the best of three runs, as the speed bench does. Before the fix every run of these
// widgets had tasks of 200-500 ms.
test("no long task over 100 ms while the default widgets of several chapters run", async () => {
  const report = [];
  for (const chapter of [CH3, "chapters/06-cfs.html", "chapters/11-many-cores.html", "chapters/12-comparison.html"]) {
    let best = null;
    for (let attempt = 0; attempt < 3 && !(best?.longest <= LONG_TASK_MS); attempt++) {
      const run = await longestTask(chapter);
      report.push(run.line);
      if (!best || run.longest < best.longest) best = run;
    }
    assert.ok(best.longest <= LONG_TASK_MS, best.line);
  }
  console.log(`# ${report.join("\n# ")}`);
});

test("opened from disk, a chapter tells the reader how to serve the book", async () => {
  for (const [path, text] of [["chapters/03-fifo-rr.html", /python3 -m http\.server 8000/], ["zh-CN/chapters/03-fifo-rr.html", /浏览器不允许从磁盘/], ["labs/sjf.html", /http:\/\/localhost:8000\//]]) {
    const page = await site.context.newPage();
    await page.goto(pathToFileURL(join(SITE, path)).href);
    const alert = page.locator(".rq-offline").first();
    await alert.waitFor();
    assert.match(await alert.innerText(), text);
    await page.close();
  }
});

// A select sized by its widest option makes every layout of its widget measure each option's
// text (docs/web.md, "Fast on a phone"): the controls' width must not depend on the options.
test("a widget's selects are as wide with one option as with all of them", async () => {
  const { page, errors } = await openPage(site, CH3);
  await page.setViewportSize(PHONE);
  await ready(page);
  const widths = await page.evaluate(() => {
    const selects = [...document.querySelector(".rq-widget").querySelectorAll(".rq-field select")];
    const before = selects.map((s) => s.getBoundingClientRect().width);
    for (const s of selects) s.replaceChildren(s.selectedOptions[0]);
    return { before, after: selects.map((s) => s.getBoundingClientRect().width) };
  });
  assert.ok(widths.before.length >= 3, `${widths.before.length} selects`);
  assert.deepEqual(widths.after, widths.before);
  assert.deepEqual(errors, []);
  await page.close();
});
