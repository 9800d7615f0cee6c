// End-to-end tests of the task lanes, the run-queue view at the cursor and the ftrace download,
// in Debian's Chromium on the built book (both editions). The expected run queue is rebuilt here
// from the raw trace lines of the same run by the `runqueue` CLI, independently of the widget.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, start } from "../browser.mjs";
import { axe, finished, open as openPage, ready } from "../pages.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

const RUNQUEUE = runqueueCli();
const FTRACE_PYTHON = process.env.FTRACE_PYTHON ?? join(process.env.HOME, ".cache/runqueue/tools/ftrace-check/bin/python");
const CFS = "chapters/06-cfs.html";
const MANY = "chapters/11-many-cores.html";
const TMP = tempDir("rq-lanes-");

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

/** The raw trace lines of a run with these boot arguments, from the CLI. */
function rawTrace(bootargs) {
  const file = join(TMP, "events.txt");
  execFileSync(RUNQUEUE, ["run", "--append", bootargs, "--events", file], { stdio: "ignore" });
  return readFileSync(file, "utf8");
}

/**
 * The fair run queues after every line at or before `t`, by the rules of docs/trace.md: a task
 * is queued from its new, wake or requeuing out (preempt, yield) until its next in; its queue is
 * the rq= of new or wake, the to= of a migrate, or the hart it last ran on. CFS picks the
 * smallest vruntime (vr=), ties to the earlier enqueued.
 */
function cfsQueues(raw, t) {
  const tasks = new Map();
  let n = 0;
  for (const line of raw.trim().split("\n")) {
    const [, time, hart, kind, tid, ...kv] = line.split(" ");
    if (Number(time) > t) break;
    const f = Object.fromEntries(kv.map((w) => w.split("=")));
    const task = tasks.get(tid) ?? { tid: Number(tid), queued: false, queue: 0, vr: 0, order: 0 };
    tasks.set(tid, task);
    if ("vr" in f) task.vr = Number(f.vr);
    if ("rq" in f) task.queue = Number(f.rq);
    const enqueue = () => Object.assign(task, { queued: true, order: ++n });
    if (kind === "new" || kind === "wake") enqueue();
    else if (kind === "in") Object.assign(task, { queued: false, queue: Number(hart) });
    else if (kind === "out") (f.why === "preempt" || f.why === "yield" ? enqueue() : (task.queued = false));
    else if (kind === "migrate") {
      task.queue = Number(f.to);
      if (task.queued) task.order = ++n;
    }
  }
  const queues = new Map();
  for (const task of [...tasks.values()].filter((x) => x.queued)) {
    queues.set(task.queue, [...(queues.get(task.queue) ?? []), task]);
  }
  return new Map([...queues].map(([q, list]) => [q, list.sort((a, b) => a.vr - b.vr || a.order - b.order).map((x) => x.tid)]));
}

/** A moment past 40 % of the run when some queue holds at least `min` tasks. */
function busyMoment(raw, min) {
  const times = raw.trim().split("\n").map((l) => Number(l.split(" ")[1]));
  const from = times[0] + (times[times.length - 1] - times[0]) * 0.4;
  for (const t of times.filter((x) => x >= from)) {
    if ([...cfsQueues(raw, t).values()].some((q) => q.length >= min)) return t;
  }
  throw new Error("no moment with a queue that long");
}

async function runWidget(path, index, lang = "") {
  const { page, errors } = await openPage(site, lang + path);
  await ready(page);
  await page.locator(".rq-widget").nth(index).locator(".rq-run").click();
  await finished(page, index);
  return { page, errors };
}

/** What the pane's run-queue view lists, queue by queue: hart (or null) and task ids in order. */
const shownQueues = (page, index) => page.evaluate((i) => {
  const root = runqueue.experiments[i].panes[0].root;
  return [...root.querySelectorAll(".rq-queue")].map((ol) => ({
    hart: ol.dataset.hart === undefined ? null : Number(ol.dataset.hart),
    tids: [...ol.querySelectorAll("li[data-tid]")].map((li) => Number(li.dataset.tid)),
  }));
}, index);

const placeCursor = (page, index, t) => page.evaluate(([i, t]) => runqueue.experiments[i].panes[0].lanes.setCursor(t), [index, t]);

for (const lang of ["", "zh-CN/"]) {
  test(`${lang || "en/"} chapter 6: the run queue at a moment lists exactly the trace's runnable tasks in CFS order`, async () => {
    const { page, errors } = await runWidget(CFS, 0, lang);
    const bootargs = await page.evaluate(() => runqueue.experiments[0].panes[0].bootargs);
    const raw = rawTrace(bootargs);
    assert.equal(await page.evaluate(() => runqueue.experiments[0].panes[0].lanes.model.events.length), raw.trim().split("\n").length,
      "the lanes hold every event of the run");
    const t = busyMoment(raw, 3);
    await placeCursor(page, 0, t);
    const want = cfsQueues(raw, t);
    assert.deepEqual(await shownQueues(page, 0), [{ hart: null, tids: want.get(0) }]);
    // The hart's line names the task the trace says runs then.
    const running = raw.trim().split("\n").filter((l) => Number(l.split(" ")[1]) <= t && / (in|out) /.test(l)).pop().split(" ");
    const hartLine = await page.locator(".rq-widget").first().locator(".rq-harts-now li").first();
    assert.equal(await hartLine.getAttribute("data-tid"), running[3] === "in" ? running[4] : null);
    assert.match(await page.locator(".rq-widget").first().locator(".rq-queue-title").first().textContent(), /min_vruntime=\d+/);
    assert.deepEqual(await axe(page, ".rq-lanes"), [], "the lanes and the run-queue view pass axe");
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("chapter 11: per-hart run queues at a moment match the trace on three harts", async () => {
  const { page, errors } = await runWidget(MANY, 1);
  const bootargs = await page.evaluate(() => runqueue.experiments[1].panes[0].bootargs);
  const raw = rawTrace(bootargs);
  assert.match(raw, / rq=/, "three harts run one fair queue each");
  const t = busyMoment(raw, 1);
  await placeCursor(page, 1, t);
  const want = [...cfsQueues(raw, t)].sort(([a], [b]) => a - b).map(([hart, tids]) => ({ hart, tids }));
  assert.deepEqual((await shownQueues(page, 1)).filter((q) => q.tids.length), want);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the lanes zoom and pan by keyboard and wheel, keep the arrow keys from mdBook, and step by event", async () => {
  const { page, errors } = await runWidget(CFS, 0);
  const url = page.url();
  const lanes = page.locator(".rq-widget").first().locator(".rq-lanes-canvas").first();
  const view = () => page.evaluate(() => runqueue.experiments[0].panes[0].lanes.window());
  const [a0, b0] = await view();
  await lanes.focus();
  await page.keyboard.press("+");
  const [a1, b1] = await view();
  assert.ok(b1 - a1 < (b0 - a0) * 0.7, "+ zooms in");
  await page.keyboard.press("PageDown");
  const [a2, b2] = await view();
  assert.ok(a2 > a1 && Math.abs(b2 - a2 - (b1 - a1)) < 2, "Page Down pans by the same span");
  await page.keyboard.press("PageUp");
  const [back0, back1] = await view();
  // Back where it was, up to floating point (the pan adds and subtracts the same span).
  assert.ok(Math.abs(back0 - a1) < 1 && Math.abs(back1 - b1) < 1, `Page Up pans back: [${back0}, ${back1}] against [${a1}, ${b1}]`);
  await page.keyboard.press("Shift+ArrowRight");
  assert.ok((await view())[0] > a1, "Shift and the right arrow pan too");
  await page.keyboard.press("Shift+ArrowLeft");
  // The arrows alone step the cursor, as a slider's do: the first event, then the next moment.
  const eventTimes = await page.evaluate(() => runqueue.experiments[0].panes[0].lanes.model.events.map((e) => e.t));
  const [t0, t1] = [eventTimes[0], eventTimes.find((t) => t > eventTimes[0])];
  const cursorNow = () => page.evaluate(() => runqueue.experiments[0].panes[0].lanes.cursor);
  await page.keyboard.press("ArrowRight");
  assert.equal(await cursorNow(), t0);
  await page.keyboard.press("ArrowRight");
  assert.equal(await cursorNow(), t1);
  await page.keyboard.press("ArrowLeft");
  assert.equal(await cursorNow(), t0);
  assert.equal(page.url(), url, "the arrow keys did not turn the page");
  await page.keyboard.press("-");
  await page.keyboard.press("-");
  assert.deepEqual(await view(), [a0, b0], "- zooms back out to the whole run");
  const box = await lanes.boundingBox();
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
  await page.mouse.wheel(0, -200);
  const [a3, b3] = await view();
  assert.ok(b3 - a3 < b0 - a0 && a3 > a0, "the wheel zooms in around the pointer");
  // A drag pans; a click places the cursor; ] steps it to the next event.
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const [a4] = await view();
  assert.ok(a4 > a3, "dragging left moves later");
  await page.mouse.click(box.x + box.width * 0.6, box.y + box.height / 2);
  const cursor = await page.evaluate(() => runqueue.experiments[0].panes[0].lanes.cursor);
  await lanes.focus();
  await page.keyboard.press("]");
  const next = await page.evaluate(() => runqueue.experiments[0].panes[0].lanes.cursor);
  const times = await page.evaluate(() => runqueue.experiments[0].panes[0].lanes.model.events.map((e) => e.t));
  assert.equal(next, times.find((x) => x > cursor), "] moves to the next event");
  await page.locator(".rq-widget").first().locator(".rq-prev-event").first().click();
  assert.equal(await page.evaluate(() => runqueue.experiments[0].panes[0].lanes.cursor), times.findLast((x) => x < next));
  assert.ok(await page.evaluate(() => runqueue.experiments[0].panes[0].charts.progress.$rqCursorMs > 0), "the charts mark the cursor");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the ftrace download is the CLI's bytes and a real ftrace parser (TRAPpy) reads every line", async () => {
  const { page, errors } = await runWidget(MANY, 1);
  const bootargs = await page.evaluate(() => runqueue.experiments[1].panes[0].bootargs);
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator(".rq-widget").nth(1).locator(".rq-dl-ftrace").click()]);
  const got = readFileSync(await download.path(), "utf8");
  const native = join(TMP, "native.ftrace.txt");
  const events = join(TMP, "native.events.txt");
  execFileSync(RUNQUEUE, ["run", "--append", bootargs, "--ftrace", native, "--events", events], { stdio: "ignore" });
  assert.equal(got, readFileSync(native, "utf8"), "the page and runqueue run --ftrace write the same bytes");
  assert.match(got, /sched_migrate_task: comm=\S+ pid=\d+ prio=120 orig_cpu=\d dest_cpu=\d/);
  const check = (file) => spawnSync(FTRACE_PYTHON, [join(ROOT, "scripts/ftrace-check.py"), file, events], { encoding: "utf8" });
  const ok = check(native);
  assert.equal(ok.status, 0, ok.stderr + ok.stdout);
  // The checker is not blind: one malformed line, a field without `=` or a bad CPU column, fails it.
  const bad = join(TMP, "bad.ftrace.txt");
  for (const broken of [got.replace(/prev_pid=(\d+) prev_prio/, "prev_pid $1 prev_prio"), got.replace(/\[00(\d)\] d\.\.2/, "[0x$1] d..2")]) {
    assert.notEqual(broken, got);
    writeFileSync(bad, broken);
    assert.equal(check(bad).status, 1, "a malformed line is reported");
  }
  assert.deepEqual(errors, []);
  await page.close();
});
