// The page's reading of command lines, in node, with the kernel's own parser (`runqueue
// settings`, the code the page's wasm runs) over the real catalog: the English the page shows
// for each refused word, compare mode's second run, and lines spelled back as the page spells
// them.

import test from "node:test";
import assert from "node:assert/strict";
import { formatArgs, parseArgs } from "../../book/widget/catalog.js";
import { formatCompare, parseCompare } from "../../book/widget/compare.js";
import { kernelCatalog } from "../../book/figures/kernel-catalog.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";

const c = kernelCatalog(runqueueCli());

test("every bad word is refused with the reason and what is accepted, and the rest applies", () => {
  const { settings, errors } = parseArgs("sched=nope smp=9 rr.slice_ms=0 trace=maybe bogus=1 loose workload=spin wl.tasks=99 wl.units=3 seed=4 tick_us=x", c);
  assert.equal(settings.sched, c.defaults.sched);
  assert.equal(settings.workload, "spin");
  assert.equal(settings.tunables.get("seed"), "4");
  assert.equal(errors.length, 9);
  assert.match(errors[0], /^sched=nope is unknown; choose one of fifo, rr, cfs/);
  assert.equal(errors[1], "smp=9 must be a number of harts from 1 to 4");
  assert.equal(errors[2], "rr.slice_ms=0 is outside 1..1000");
  assert.equal(errors[3], "trace=maybe is not one of on, off");
  assert.equal(errors[4], "bogus is not a setting the kernel knows");
  assert.equal(errors[5], '"loose" is not of the form name=value');
  assert.equal(errors[6], "wl.tasks=99 is outside 1..32", "checked against the chosen workload's limits");
  assert.equal(errors[7], "wl.units is not a setting of workload spin");
  assert.equal(errors[8], "tick_us=x is not a whole number");
  assert.match(parseArgs("cfs.features=TURBO", c).errors[0], /each one of START_DEBIT, FAIR_SLEEPERS/);
  assert.match(parseArgs("policy=normal,fifo", c).errors[0], /each one of normal, batch, idle/);
  assert.match(parseArgs("nice=0,-21", c).errors[0], /-20\.\.19/);
  for (const v of ["3/2", "1/0", "2", "x"]) assert.match(parseArgs(`sjf.alpha=${v}`, c).errors[0], /fraction/);
  assert.deepEqual(parseArgs("sched=sjf sjf.alpha=1/2 nice=0,-5,19 policy=normal,idle,batch cfs.features=NO_FAIR_SLEEPERS", c).errors, []);
});

test("a line spelled back by the page reads as itself", () => {
  const { settings, errors } = parseArgs("seed=4 workload=spin sched=rr rr.slice_ms=5 wl.tasks=3 smp=2", c);
  assert.deepEqual(errors, []);
  assert.equal(formatArgs(settings, c), "sched=rr workload=spin smp=2 seed=4 wl.tasks=3", "catalog order, defaults dropped");
  const again = parseArgs(formatArgs(settings, c), c);
  assert.equal(formatArgs(again.settings, c), formatArgs(settings, c));
});

test("a compared run can change any setting, and bad words are refused with the reason", () => {
  const base = parseArgs("workload=spin", c).settings;
  assert.deepEqual(parseCompare("cfs", c, base), { compare: { sched: "cfs", kernel: null, words: "" }, errors: [] });
  assert.deepEqual(parseCompare("sched=rr smp=2 wl.tasks=30", c, base).compare, { sched: "rr", kernel: null, words: "smp=2 wl.tasks=30" });
  assert.deepEqual(parseCompare("smp=3", c, base).compare, { sched: null, kernel: null, words: "smp=3" });
  assert.deepEqual(parseCompare("same", c, base).compare, { sched: null, kernel: null, words: "" });
  assert.equal(parseCompare("", c, base).compare, null);
  const bad = parseCompare("nope smp=9", c, base);
  assert.equal(bad.compare, null);
  assert.match(bad.errors[0], /nope is not a scheduler/);
  assert.match(bad.errors[1], /smp=9/);
  // Another kernel: only one the site serves (catalog.kernels, from its kernels.json).
  const linux = { ...c, kernels: ["runqueue", "linux-6.12"] };
  assert.deepEqual(parseCompare("kernel=linux-6.12 smp=2", linux, base).compare, { sched: null, kernel: "linux-6.12", words: "smp=2" });
  assert.match(parseCompare("kernel=linux-6.1", linux, base).errors[0], /kernel=linux-6.1 is not a kernel of this site; choose one of runqueue, linux-6.12/);
  assert.match(parseCompare("kernel=linux-6.12", c, base).errors[0], /not a kernel of this site/);
  assert.equal(formatCompare(parseCompare("cfs kernel=linux-6.12 smp=2", linux, base).compare), "cfs kernel=linux-6.12 smp=2");
  for (const text of ["cfs", "rr smp=2", "smp=3", "same"]) assert.equal(formatCompare(parseCompare(text, c, base).compare), text);
});
