// The run queue rebuilt from the real kernel's traces (book/widget/rq-state.js), in the order
// each policy states in the kernel's catalog. The rules themselves: book/widget/rq-state.test.mjs.

import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { normalizeCatalog, queueViews } from "../../book/widget/catalog.js";
import { snapshot } from "../../book/widget/rq-state.js";
import { rawCatalog } from "../../book/figures/kernel-catalog.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

const catalog = normalizeCatalog(rawCatalog(runqueueCli()), "en");
const views = (sched) => queueViews(catalog, sched);

const events = (text) => text.trim().split("\n").map((l) => {
  const [, t, h, k, id, ...kv] = l.trim().split(" ");
  return { t: +t, h: +h, k, id: +id, f: Object.fromEntries(kv.map((w) => w.split("=")).map(([a, b]) => [a, /^-?\d+$/.test(b) ? +b : b])) };
});
// On the real kernel's traces: every task a hart switches in is the head of the queue rebuilt
// from the events before it. (MLFQ's boost, O(1)'s array swap and CFS's pass over a task that
// just yielded act without an event of the tasks they move: docs/web.md.)
test("on real runs, each switch-in is the head of the rebuilt queue", () => {
  const runqueue = runqueueCli();
  for (const args of ["sched=cfs workload=spin", "sched=eevdf workload=fairness-unequal", "sched=sjf workload=fairness-unequal",
    "sched=stride workload=fairness-unequal", "sched=bvt workload=fairness-unequal", "sched=rr workload=fairness-unequal",
    "sched=cfs workload=spin smp=2 wl.tasks=5"]) {
    const file = join(tempDir("rq-state-"), "events.txt");
    execFileSync(runqueue, ["run", "--append", args, "--events", file], { stdio: "ignore" });
    const ev = events(readFileSync(file, "utf8"));
    const sched = /sched=(\S+)/.exec(args)[1];
    let picks = 0;
    ev.forEach((e, i) => {
      if (e.k !== "in") return;
      const s = snapshot(ev.slice(0, i), Infinity, views(sched));
      const q = s.queues.find((q) => q.hart === null || q.hart === e.h);
      assert.equal(q?.tasks[0]?.tid, e.id, `${args}: event ${i} switches in task ${e.id}`);
      picks++;
    });
    assert.ok(picks > 100, `${args}: ${picks} picks`);
  }
});

test("a lab policy's queue is drawn as the policy it reimplements", () => {
  for (const lab of ["sjf", "mlfq", "bvt"]) assert.deepEqual(views(`lab-${lab}`).fair, views(lab).fair, lab);
});
