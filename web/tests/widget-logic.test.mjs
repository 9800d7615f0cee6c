// Unit tests for the widget's pure logic (catalog and command lines, the run model), in node.
// The catalog here is a small made-up one in the kernel's format; the browser tests use the
// real kernel's.

import test from "node:test";
import assert from "node:assert/strict";
import { describeProblem, formatArgs, normalizeCatalog, parseArgs, withReader } from "../../book/widget/catalog.js";
import { RunModel } from "../../book/widget/model.js";

const RAW = {
  defaults: { sched: "cfs", workload: "realtime" },
  schedulers: [
    { name: "fifo", help: "first in, first out" },
    { name: "rr", tunables: [{ name: "rr.slice_ms", type: "int", default: 5, min: 1, max: 100, unit: "ms" }] },
    { name: "cfs" },
    { name: "sjf" },
  ],
  workloads: [
    { name: "realtime", tunables: [{ name: "wl.tasks", type: "int", default: 5, min: 2, max: 8 }] },
    { name: "spin", tunables: [{ name: "wl.tasks", type: "int", default: 10, min: 1, max: 64 }] },
  ],
  globals: [
    { name: "smp", type: "int", default: 1, min: 1, max: 4 },
    { name: "seed", type: "int", default: 0, min: 0, max: null },
    { name: "trace", type: "choice", default: "on", values: ["on", "off"] },
    { name: "nice", type: "list", default: "0", min: -20, max: 19 },
    { name: "policy", type: "choices", default: "normal", values: ["normal", "batch", "idle"] },
  ],
  tunables: [
    { name: "cfs.features", type: "features", default: "START_DEBIT,FAIR_SLEEPERS", values: ["START_DEBIT", "FAIR_SLEEPERS"] },
    { name: "sjf.alpha", type: "fraction", default: "1/16" },
  ],
};

test("the catalog puts prefixed tunables under their owner and keeps smp's limit", () => {
  const c = normalizeCatalog(RAW);
  assert.deepEqual(c.scheds.find((s) => s.name === "cfs").tunables.map((t) => t.name), ["cfs.features"]);
  assert.deepEqual(c.common.map((t) => t.name), ["seed", "trace", "nice", "policy"]);
  assert.equal(c.maxHarts, 4);
  assert.deepEqual(c.defaults, { sched: "cfs", workload: "realtime" });
  assert.deepEqual(c.tunables.get("trace").values, ["on", "off"], "a choice is a drop-down");
  assert.equal(c.tunables.get("cfs.features").values, null, "features combine, so they are typed");
  assert.equal(c.tunables.get("policy").values, null, "a list of names is typed too");
  assert.throws(() => normalizeCatalog({ scheds: [], workloads: [] }), /no schedulers/);
  assert.throws(() => normalizeCatalog(null), /no schedulers/);
});

test("the parser's problems are worded in English, with what is accepted", () => {
  const c = normalizeCatalog(RAW);
  const say = (p) => describeProblem(p, c);
  assert.equal(say({ error: "not-key-value", word: "loose" }), '"loose" is not of the form name=value');
  assert.equal(say({ error: "unknown-sched", value: "nope", accepted: ["fifo", "rr"] }), "sched=nope is unknown; choose one of fifo, rr");
  assert.equal(say({ error: "unknown-workload", value: "x", accepted: ["spin"] }), "workload=x is unknown; choose one of spin");
  assert.equal(say({ error: "unknown-key", name: "wl.tasks", workload: "spin", elsewhere: true }), "wl.tasks is not a setting of workload spin");
  assert.equal(say({ error: "unknown-key", name: "bogus", workload: "spin", elsewhere: false }), "bogus is not a setting the kernel knows");
  assert.equal(say({ error: "duplicate", name: "seed" }), "seed is given twice");
  const bad = (type, extra) => say({ error: "bad-value", name: "t", value: "v", type, min: 1, max: 100, values: ["A", "B"], ...extra });
  assert.equal(bad("int", { why: "not-integer" }), "t=v is not a whole number");
  assert.equal(bad("int", { why: "out-of-range" }), "t=v is outside 1..100");
  assert.equal(bad("list"), "t=v must be whole numbers in 1..100 separated by commas");
  assert.equal(bad("features"), "t=v must be features separated by commas, each one of A, B, or NO_ before one");
  assert.equal(bad("choices"), "t=v must be names separated by commas, each one of A, B");
  assert.equal(bad("fraction"), "t=v must be a fraction p/q between 0 and 1, or 0 or 1");
  assert.equal(bad("choice"), "t=v is not one of A, B");
  assert.equal(say({ error: "bad-value", name: "smp", value: "9", type: "int", why: "out-of-range", min: 1, max: 4 }), "smp=9 must be a number of harts from 1 to 4");
});

test("a reading becomes settings, smp apart, over the defaults given", () => {
  const c = normalizeCatalog(RAW);
  let asked;
  withReader(c, (line, base) => {
    asked = { line, base: JSON.parse(base) };
    return JSON.stringify({ sched: "rr", workload: "spin", tunables: [["seed", "4"], ["smp", "2"]], errors: [{ error: "duplicate", name: "seed" }] });
  });
  const { settings, errors } = parseArgs("sched=rr seed=4 seed=5", c, { workload: "spin", smp: 3, tunables: [["seed", "1"]] });
  assert.deepEqual(asked, { line: "sched=rr seed=4 seed=5", base: { sched: "cfs", workload: "spin", tunables: [["seed", "1"], ["smp", "3"]] } });
  assert.deepEqual(settings, { sched: "rr", workload: "spin", smp: 2, tunables: new Map([["seed", "4"]]) });
  assert.deepEqual(errors, ["seed is given twice"]);
});

test("formatted command lines hold only what applies and differs from the default", () => {
  const c = normalizeCatalog(RAW);
  const settings = { sched: "rr", workload: "realtime", smp: 1, tunables: new Map([["rr.slice_ms", "5"], ["wl.tasks", "5"], ["seed", "4"]]) };
  assert.equal(formatArgs(settings, c), "sched=rr workload=realtime smp=1 seed=4");
  settings.tunables.set("rr.slice_ms", "9");
  assert.equal(formatArgs(settings, c), "sched=rr workload=realtime smp=1 seed=4 rr.slice_ms=9");
  assert.equal(formatArgs(settings, c, "fifo"), "sched=fifo workload=realtime smp=1 seed=4");
  settings.tunables.set("wl.tasks", "3");
  assert.equal(formatArgs({ ...settings, workload: "spin" }, c), "sched=rr workload=spin smp=1 seed=4 rr.slice_ms=9 wl.tasks=3", "a workload's own default");
});

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

test("the terminal shortens the RESULT line, however the console text is split", async () => {
  const { ResultLineFilter } = await import("../../book/widget/console.js");
  const text = "hello\n tid name\n   1 task0\nRESULT {\"a\":1}\nRESULTS are in\nbye";
  for (let cut = 0; cut <= text.length; cut++) {
    const f = new ResultLineFilter((n) => `[${n} characters]`);
    const shown = f.push(text.slice(0, cut)) + f.push(text.slice(cut));
    assert.equal(shown, "hello\n tid name\n   1 task0\nRESULT [7 characters]\nRESULTS are in\nbye", `cut at ${cut}`);
  }
});
