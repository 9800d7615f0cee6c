// Unit tests of book/widget/catalog.js, in node with no build: the catalog as the widget
// normalises it, the English it gives the kernel parser's findings, and command lines spelled
// back. The catalog is a small made-up one in the kernel's format; the parser itself is the
// kernel's (its tests: settings/src/tests.rs, web/tests/settings.test.mjs).

import test from "node:test";
import assert from "node:assert/strict";
import { describeProblem, formatArgs, normalizeCatalog, parseArgs, withReader } from "./catalog.js";

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
