// Unit tests of book/widget/model.js, in node with no build: chart data from trace events
// and RESULT.

import test from "node:test";
import assert from "node:assert/strict";
import { RunModel } from "./model.js";

const ev = (t, h, k, id, f = {}) => ({ t, h, k, id, f });

test("the run model follows stints, progress and finishes, and RESULT overrides", () => {
  const m = new RunModel();
  m.add([
    ev(1000, 0, "new", 1, { name: "short" }),
    ev(1000, 0, "new", 2, { name: "long" }),
    ev(2000, 0, "in", 1),
    ev(3000, 0, "out", 1, { why: "yield", ran: 1000 }),
    ev(3000, 0, "in", 1),
    ev(4000, 0, "out", 1, { why: "exit", ran: 1000 }),
    ev(4000, 0, "exit", 1, { cpu: 2000 }),
    ev(4000, 0, "in", 2),
  ]);
  const [short, long] = m.taskList();
  assert.equal(short.name, "short");
  assert.equal(short.finishNs, 3000);
  assert.equal(short.cpuNs, 2000);
  assert.equal(long.finishNs, null);
  assert.deepEqual(m.stints(), [{ hart: 0, tid: 1, start: 0, end: 10000 }], "the task that ran most owns a 10 µs cell");
  m.setResult({ tasks: [{ tid: 1, name: "short", finish_ns: 3100, cpu_ns: 2100 }, { tid: 2, name: "long", finish_ns: 9000, cpu_ns: 5000 }] });
  assert.deepEqual(m.taskList().map((t) => t.finishNs), [3100, 9000]);
});

test("response and turnaround run from a task's arrival (new) to its first run and to its exit", () => {
  const m = new RunModel();
  m.add([ev(1000, 0, "new", 1), ev(1000, 0, "in", 1), ev(2000, 0, "new", 2), ev(5000, 0, "out", 1, { why: "exit", ran: 4000 }), ev(5000, 0, "exit", 1), ev(5000, 0, "in", 2)]);
  m.add([ev(6000, 0, "out", 2, { why: "preempt", ran: 1000 }), ev(6000, 0, "in", 2), ev(9000, 0, "exit", 2)]);
  const [a, b] = m.taskList();
  assert.deepEqual([a.responseNs, a.turnaroundNs], [0, 4000]);
  assert.deepEqual([b.responseNs, b.turnaroundNs], [3000, 7000], "a later switch-in is no first run");
  m.setResult({ tasks: [{ tid: 2, name: "b", finish_ns: 9100, cpu_ns: 4000, response_ns: 3100, turnaround_ns: 7100 }] });
  assert.deepEqual([b.responseNs, b.turnaroundNs], [3100, 7100], "the RESULT line is authoritative");
});

test("a long timeline keeps its shape in coarser cells", () => {
  const m = new RunModel();
  const events = [ev(0, 0, "new", 1), ev(0, 0, "new", 2)];
  // task 1 runs 1 ms, then task 2 runs 1 ms, alternating for 100 ms on hart 0, in 50 µs stints
  for (let t = 0; t < 100e6; t += 50_000) {
    const tid = Math.floor(t / 1e6) % 2 ? 2 : 1;
    events.push(ev(t, 0, "in", tid), ev(t + 50_000, 0, "out", tid, { why: "yield", ran: 50_000 }));
  }
  m.add(events);
  const bars = m.stints();
  assert.ok(m.cellNs > 10_000, "cells grew");
  assert.equal(bars.length, 100, "one bar per millisecond-long turn");
  bars.forEach((b, k) => {
    assert.equal(b.tid, k % 2 ? 2 : 1);
    assert.ok(Math.abs(b.start - k * 1e6) <= m.cellNs, `turn ${k} starts within a cell of ${k} ms`);
  });
});

test("latency comes live from marks, then from RESULT's histograms", () => {
  const m = new RunModel();
  assert.equal(m.latencySummary(), null);
  m.add([ev(0, 0, "mark", 1, { lat: 1500 }), ev(5, 0, "mark", 1, { lat: 3500 }), ev(9, 0, "mark", 1, { lat: 9e12 })]);
  const live = m.latencySummary();
  assert.deepEqual([live.min, live.max], [1500, 9e12]);
  assert.equal(live.hist.length, 1000, "huge samples land in the overflow bin");
  assert.equal(live.hist[1] + live.hist[3] + live.hist[999], 3);
  m.setResult({ tasks: [
    { tid: 1, name: "a", finish_ns: 1, cpu_ns: 1, lat: { min_ns: 1000, avg_ns: 2000, max_ns: 4000, samples: 2, hist_us: [0, 1, 1] } },
    { tid: 2, name: "b", finish_ns: 1, cpu_ns: 1, lat: { min_ns: 500, avg_ns: 1000, max_ns: 1000, samples: 2, hist_us: [2] } },
  ] });
  assert.deepEqual(m.latencySummary(), { hist: [2, 1, 1], min: 500, avg: 1500, max: 4000 });
});

test("the run model keeps each migration for the timeline, and counts past the ones it keeps", () => {
  const m = new RunModel();
  m.add([
    ev(1000, 0, "new", 1, { name: "a", rq: 0 }),
    ev(1000, 0, "in", 1),
    ev(5000, 1, "migrate", 1, { from: 0, to: 1, why: "periodic" }),
  ]);
  assert.deepEqual(m.migrations, [{ tid: 1, at: 4000, from: 0, to: 1, why: "periodic" }]);
  const many = Array.from({ length: 2500 }, (_, i) => ev(6000 + i, 0, "migrate", 1, { from: 1, to: 0, why: "newidle" }));
  m.add(many);
  assert.equal(m.migrations.length, 2000);
  assert.equal(m.migrationCount, 2501);
});

// The line's CPU time at emulated time `x` ms, read off the drawn points.
const lineAt = (points, x) => {
  const i = points.findIndex((p) => p.x >= x);
  if (i <= 0) return i === 0 ? points[0].y : null;
  const [a, b] = [points[i - 1], points[i]];
  return a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
};

test("progress lines keep the shape of tasks that switch faster than the sampling cell", () => {
  // chapter 12's rr yield-speed: four tasks take turns in 20 µs stints for 600 ms
  const m = new RunModel();
  const events = [1, 2, 3, 4].map((tid) => ev(0, 0, "new", tid));
  for (let t = 0, k = 0; t < 600e6; t += 20_000, k++) {
    const tid = (k % 4) + 1;
    events.push(ev(t, 0, "in", tid), ev(t + 20_000, 0, "out", tid, { why: "yield", ran: 20_000 }));
  }
  m.add(events);
  for (const task of m.taskList()) {
    const p = task.progress;
    assert.deepEqual(p[0], { x: 0, y: 0 }, `${task.name} keeps its starting point`);
    assert.ok(p.length > 100, `${task.name} has ${p.length} points`);
    assert.ok(p.at(-1).x > 599, `${task.name}'s line reaches the end of the run`);
    for (const x of [150, 300, 450]) {
      assert.ok(Math.abs(lineAt(p, x) - x / 4) < 1, `${task.name} has a quarter of the CPU at ${x} ms: ${lineAt(p, x)}`);
    }
    assert.ok(p.length <= 4000, "the line stays bounded");
  }
});

test("a progress line is flat while its task waits and keeps its first point", () => {
  const m = new RunModel();
  m.add([ev(0, 0, "new", 1), ev(0, 0, "new", 2), ev(0, 0, "in", 1), ev(10e6, 0, "out", 1, { why: "yield", ran: 10e6 }),
    ev(10e6, 0, "in", 2), ev(10.01e6, 0, "out", 2, { why: "exit", ran: 0.01e6 })]);
  const late = m.taskList()[1].progress;
  assert.deepEqual(late, [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10.01, y: 0.01 }]);
});
