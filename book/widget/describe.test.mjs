// Unit tests, in node, of the charts' text alternatives (book/widget/describe.js) and of the
// colours and patterns that keep colour from being the only cue (book/widget/palette.js).

import test from "node:test";
import assert from "node:assert/strict";
import { completionData, lanesData, latencyData, overlayData, progressData, timelineData, valueAt } from "./describe.js";
import { CHART_GROUND, DASHES, PATTERNS, TASK_COLOURS, contrast, taskStyle } from "./palette.js";
import { Lanes } from "./rq-state.js";
import { STRINGS } from "./strings.js";
import { STATE_COLOURS } from "./lanes.js";

const T = STRINGS.en;
const task = (tid, name, finishNs, cpuNs, waitNs, progress = []) => ({ tid, name, finishNs, cpuNs, waitNs, progress });

test("WCAG's contrast ratio: black on white is 21, a colour on itself 1, and a known pair", () => {
  assert.equal(contrast("#000000", "#ffffff"), 21);
  assert.equal(contrast("#1f77b4", "#1f77b4"), 1);
  assert.equal(contrast("#767676", "#ffffff").toFixed(2), "4.54");
});

test("every task colour and lane state keeps 3:1 against the charts' ground, and tasks differ by pattern and dash too", () => {
  for (const c of [...TASK_COLOURS, ...Object.values(STATE_COLOURS)]) {
    assert.ok(contrast(c, CHART_GROUND) >= 3, `${c}: ${contrast(c, CHART_GROUND).toFixed(2)}`);
  }
  assert.equal(new Set(TASK_COLOURS).size, TASK_COLOURS.length);
  assert.equal(new Set(PATTERNS).size, PATTERNS.length);
  assert.equal(new Set(DASHES.map(String)).size, DASHES.length);
  const ten = Array.from({ length: 10 }, (_, i) => taskStyle(i + 1));
  assert.equal(new Set(ten.map((s) => `${s.pattern} ${s.dash}`)).size, 10, "ten tasks, ten patterns and dashes");
});

test("the completion chart's text names the task with the most CPU and the one that waited longest", () => {
  const tasks = [task(1, "a", 30e6, 10e6, 20e6), task(2, "b", 25e6, 15e6, 5e6)];
  const d = completionData(tasks, T);
  assert.equal(d.summary, "2 tasks. The most CPU: b, 15.000 ms; the longest wait: a, 20.000 ms.");
  assert.deepEqual(d.rows, [["a", "30.000", "10.000", "20.000"], ["b", "25.000", "15.000", "5.000"]]);
  assert.equal(completionData([], T).summary, T.noData);
});

test("a progress line's value between its points is on the straight line joining them", () => {
  const line = [{ x: 0, y: 0 }, { x: 2, y: 2 }, { x: 4, y: 2 }, { x: 6, y: 5 }];
  assert.equal(valueAt(line, 1), 1);
  assert.equal(valueAt(line, 3), 2);
  assert.equal(valueAt(line, 5), 3.5);
  assert.equal(valueAt(line, 9), 5, "flat past the last point");
  const d = progressData([task(1, "a", null, 0, null, line)], T, 3);
  assert.deepEqual(d.rows, [["2.000", "2.000"], ["4.000", "2.000"], ["6.000", "5.000"]]);
  assert.match(d.summary, /over 6\.000 ms .*at the end: a 5\.000 ms/);
});

test("the timeline's table gives each task's time on each hart and its share, which add up", () => {
  const stints = [{ hart: 0, tid: 1, start: 0, end: 3e6 }, { hart: 0, tid: 2, start: 3e6, end: 4e6 }, { hart: 1, tid: 2, start: 0, end: 2e6 }];
  const d = timelineData(stints, [task(1, "a"), task(2, "b")], T);
  assert.deepEqual(d.rows, [["hart 0", "a", "3.000", "75 %"], ["hart 0", "b", "1.000", "25 %"], ["hart 1", "b", "2.000", "100 %"]]);
  assert.equal(d.summary, "hart 0 ran a most (75 % of its busy time); hart 1 ran b most (100 % of its busy time)");
});

test("the latency histogram's table lists the bins that hold samples", () => {
  const d = latencyData({ hist: [0, 3, 0, 1], min: 1200, avg: 1900, max: 3400 }, T);
  assert.deepEqual(d.rows, [["1–2", "3"], ["3–4", "1"]]);
  assert.match(d.summary, /min 1\.2 µs, avg 1\.9 µs, max 3\.4 µs \(4 samples\)/);
});

test("compare mode's text names the task whose CPU differs most between the runs", () => {
  const runs = [{ label: "fifo", cpu: new Map([["a", 1], ["b", 9]]) }, { label: "rr", cpu: new Map([["a", 5], ["b", 5]]) }];
  const d = overlayData(runs, T);
  assert.deepEqual(d.head, ["task", "fifo", "rr"]);
  assert.deepEqual(d.rows, [["a", "1.000", "5.000"], ["b", "9.000", "5.000"]]);
  assert.match(d.summary, /the largest difference: a, 1\.000 ms .* 5\.000 ms/);
});

test("the lanes' table gives each task's running, waiting and blocked time and its marks, from the trace's events", () => {
  const lanes = new Lanes();
  const ev = (t, h, k, id, f = {}) => ({ t, h, k, id, f });
  lanes.add([ev(0, 0, "new", 1, { name: "a" }), ev(0, 0, "new", 2, { name: "b" }), ev(1e6, 0, "in", 1), ev(3e6, 0, "out", 1, { why: "preempt" }),
    ev(3e6, 0, "in", 2), ev(4e6, 0, "out", 2, { why: "sleep" }), ev(4e6, 0, "in", 1), ev(6e6, 0, "wake", 2), ev(6e6, 0, "out", 1, { why: "exit" })]);
  const d = lanesData(lanes, T);
  assert.deepEqual(d.rows, [["a", "4.000", "2.000", "0.000", "0", "1", "0"], ["b", "1.000", "3.000", "2.000", "1", "0", "0"]]);
  assert.match(d.summary, /^1 harts and 2 tasks over 6\.000 ms \(9 trace events\)/);
});
