// End-to-end tests of what the widget draws (issue #15): progress lines that keep their shape,
// per-task figures that cannot mislead on fixed-time workloads, shared axes in compare mode,
// the kernel's own table kept readable, and runs without a trace. Needs a built site.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { start } from "../browser.mjs";
import { finished, open as openPage, ready } from "../pages.mjs";

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

const CH3 = "chapters/03-fifo-rr.html"; // rr vs fifo on fairness-unequal, in compare mode
const run = async (page, i) => {
  await page.locator(".rq-widget").nth(i).getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, i);
  await page.waitForTimeout(400); // the last redraw
};

test("FIFO's starved tasks show the CPU they got and their wait beside their finish time", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  await run(page, 0);
  const panes = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => ({
    result: JSON.parse(p.result),
    series: p.charts.completion.data.datasets.map((d) => ({ label: d.label, data: d.data })),
    head: [...p.charts.table.tHead.rows[0].cells].map((c) => c.textContent),
    rows: [...p.charts.table.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)),
  })));
  for (const p of panes) {
    const ms = (ns) => ns / 1e6;
    assert.deepEqual(p.series.map((s) => s.label), ["finish time", "CPU received", "waiting"]);
    assert.deepEqual(p.series[1].data, p.result.tasks.map((t) => ms(t.cpu_ns)), "the CPU bars are RESULT's cpu_ns");
    assert.deepEqual(p.series[2].data, p.result.tasks.map((t) => ms(t.wait_ns)), "the waiting bars are RESULT's wait_ns");
    assert.deepEqual(p.head, ["task", "finish (ms)", "CPU (ms)", "waiting (ms)", "switches", "units done", "response (ms)", "turnaround (ms)"]);
    assert.deepEqual(p.rows, p.result.tasks.map((t) => [t.name, ms(t.finish_ns).toFixed(3), ms(t.cpu_ns).toFixed(3),
      ms(t.wait_ns).toFixed(3), String(t.switches), String(t.iterations), ms(t.response_ns).toFixed(3), ms(t.turnaround_ns).toFixed(3)]),
    "the table holds every figure of chapters 1 and 2a");
  }
  // Under FIFO every task finishes at the end of the fixed time, but the CPU bars differ.
  const fifo = panes[1].result.tasks;
  assert.ok(Math.max(...fifo.map((t) => t.cpu_ns)) > 2 * Math.min(...fifo.map((t) => t.cpu_ns)));
  assert.deepEqual(errors, []);
  await page.close();
});

test("compare mode draws both panes to the same axes", async () => {
  // The second run is half as long, so each of its axes on its own would be shorter.
  const { page, errors } = await openPage(site, `${CH3}?e1.vs=${encodeURIComponent("fifo wl.run_ms=500")}`);
  await ready(page);
  await run(page, 0);
  assert.match(await page.evaluate(() => runqueue.experiments[0].panes[1].bootargs), /^sched=fifo .*wl\.run_ms=500$/);
  for (const chart of await page.locator(".rq-widget").first().locator(".rq-chart:visible").all()) {
    await chart.scrollIntoViewIfNeeded(); // a chart off screen waits to be seen before it redraws
  }
  await page.waitForTimeout(400);
  const axes = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => ({
    completion: p.charts.completion.scales.y.max, progressX: p.charts.progress.scales.x.max,
    progressY: p.charts.progress.scales.y.max, timeline: p.charts.timeline.scales.x.max,
    cpu: Math.max(...JSON.parse(p.result).tasks.map((t) => t.cpu_ns / 1e6)),
  })));
  assert.notEqual(axes[0].cpu, axes[1].cpu, "the two runs' largest CPU times differ");
  // One chart also holds both runs, task by task.
  const overlay = await page.evaluate(() => runqueue.experiments[0].overlay.chart.data.datasets.map((d) => d.data));
  const cpus = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => JSON.parse(p.result).tasks.map((t) => t.cpu_ns / 1e6)));
  assert.deepEqual(overlay, cpus);
  for (const key of ["completion", "progressX", "progressY", "timeline"]) {
    assert.equal(axes[0][key], axes[1][key], `${key}: ${axes[0][key]} and ${axes[1][key]}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("progress lines keep their starting point and the shape of tasks that switch often", async () => {
  const args = encodeURIComponent("sched=rr workload=yield-speed smp=1");
  const { page, errors } = await openPage(site, `${CH3}?e1=${args}&e1.vs=`);
  await ready(page);
  await run(page, 0);
  const lines = await page.evaluate(() => runqueue.experiments[0].panes[0].model.taskList().map((t) => t.progress));
  assert.equal(lines.length, 4);
  for (const points of lines) {
    assert.deepEqual(points[0], { x: 0, y: 0 }, "the line starts at 0");
    assert.ok(points.length > 20, `a line of ${points.length} points`);
    const last = points.at(-1);
    const middle = points.find((p) => p.x >= last.x / 2);
    assert.ok(middle.y > last.y / 4 && middle.y < (3 * last.y) / 4, "halfway through, about half its CPU time");
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the terminal keeps the kernel's table in view, unwrapped, above a shortened RESULT line", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  await run(page, 0);
  const terminals = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => {
    const buffer = p.terminal.buffer.active;
    const lines = [];
    for (let i = buffer.viewportY; i < buffer.viewportY + p.terminal.rows; i++) lines.push(buffer.getLine(i).translateToString(true));
    return { cols: p.terminal.cols, lines, result: p.result };
  }));
  for (const t of terminals) {
    assert.ok(t.cols >= 120, `${t.cols} columns`);
    const head = t.lines.findIndex((l) => /^ tid +name +arrive_ms +response_ms +finish_ms +turnaround_ms +cpu_ms +wait_ms +switches +iterations$/.test(l));
    assert.ok(head >= 0, `the table's header is on screen:\n${t.lines.join("\n")}`);
    assert.match(t.lines[head + 1], /^ +1 +task0 +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ +\d+ +\d+$/, "a row on one line");
    const note = t.lines.find((l) => l.startsWith("RESULT "));
    assert.match(note, /characters/);
    assert.ok(note.length < 120);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("a run with trace=off says why it has no charts and offers no empty Perfetto trace", async () => {
  const { page, errors } = await openPage(site, "chapters/07-sleepers.html");
  await ready(page);
  const w = page.locator(".rq-widget").first();
  const notes = w.locator(".rq-note");
  assert.equal(await notes.count(), 2, "one note per pane");
  assert.match(await notes.first().innerText(), /trace=off/);
  const visible = () => page.evaluate(() => runqueue.experiments[0].panes.map((p) =>
    [p.charts.progress.canvas, p.charts.timeline.canvas].map((c) => c.checkVisibility())));
  await run(page, 0);
  assert.deepEqual(await visible(), [[false, false], [false, false]], "no empty progress chart or timeline");
  assert.ok(await w.getByRole("button", { name: "Download Perfetto trace" }).isDisabled());
  assert.ok(await w.getByRole("button", { name: "Download RESULT JSON" }).isEnabled());
  assert.deepEqual(errors, []);
  await page.close();
});
