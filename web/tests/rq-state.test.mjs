// Unit tests of the run queue rebuilt from trace events (book/widget/rq-state.js), on small
// hand-made traces in the kernel's line format (docs/trace.md), each queue ordered as its
// policy declares in the real kernel's catalog (`SchedSpec::queue`), and on real runs.

import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeCatalog, queueViews } from "../../book/widget/catalog.js";
import { Lanes, snapshot } from "../../book/widget/rq-state.js";
import { rawCatalog } from "../../book/figures/kernel-catalog.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";

const catalog = normalizeCatalog(rawCatalog(runqueueCli()), "en");
const views = (sched) => queueViews(catalog, sched);

const events = (text) => text.trim().split("\n").map((l) => {
  const [, t, h, k, id, ...kv] = l.trim().split(" ");
  return { t: +t, h: +h, k, id: +id, f: Object.fromEntries(kv.map((w) => w.split("=")).map(([a, b]) => [a, /^-?\d+$/.test(b) ? +b : b])) };
});
const order = (s, i = 0) => s.queues[i].tasks.map((t) => t.tid);

test("CFS: smallest vruntime first, ties to the earlier enqueued; a requeued task's out carries its new vruntime", () => {
  const ev = events(`
    T 0 0 new 1 name=a class=fair vr=100 min=100
    T 0 0 new 2 name=b class=fair vr=100 min=100
    T 0 0 new 3 name=c class=fair vr=90 min=90
    T 10 0 in 3 vr=90 min=90
    T 50 0 out 3 why=preempt ran=40 vr=130 min=100
    T 60 0 in 1 vr=100 min=100`);
  assert.deepEqual(order(snapshot(ev, 5, views("cfs"))), [3, 1, 2]);
  const s = snapshot(ev, 55, views("cfs"));
  assert.deepEqual(order(s), [1, 2, 3]);
  assert.equal(s.queues[0].min, 100);
  const later = snapshot(ev, 60, views("cfs"));
  assert.deepEqual(order(later), [2, 3]);
  assert.equal(later.harts[0].running.tid, 1);
  const tie = events(`
    T 0 0 new 1 name=a class=fair vr=90
    T 0 0 new 2 name=b class=fair vr=100
    T 1 0 in 1 vr=90
    T 9 0 out 1 why=yield ran=8 vr=100`);
  assert.deepEqual(order(snapshot(tie, 9, views("cfs"))), [2, 1], "equal vruntimes: the task enqueued first goes first");
});

test("real-time before fair, highest priority first; a preempted SCHED_FIFO task keeps the head of its level", () => {
  const ev = events(`
    T 0 0 new 1 name=f class=fair vr=0
    T 0 0 new 2 name=r1 class=fifo prio=10
    T 0 0 new 3 name=r2 class=fifo prio=10
    T 0 0 new 4 name=hi class=fifo prio=50
    T 1 0 in 2 prio=10
    T 5 0 out 2 why=preempt ran=4 prio=10`);
  assert.deepEqual(order(snapshot(ev, 5, views("cfs"))), [4, 2, 3, 1]);
});

test("EEVDF: eligible tasks by virtual deadline, then the rest; MLFQ by level, FIFO within one", () => {
  const ev = events(`
    T 0 0 new 1 name=a class=fair vr=100 vd=400 lag=0
    T 0 0 new 2 name=b class=fair vr=50 vd=500 lag=0
    T 0 0 new 3 name=c class=fair vr=300 vd=350 lag=0`);
  const s = snapshot(ev, 0, views("eevdf"));
  // The average vruntime is 150: a (100) and b (50) are eligible, c (300) is not.
  assert.deepEqual(order(s), [1, 2, 3]);
  assert.deepEqual(s.queues[0].tasks.map((t) => t.eligible), [true, true, false]);
  // A SCHED_IDLE task weighs what the policy says (3), not what its nice would: b and c barely
  // move the average (about 100.6), so only a is eligible.
  const idle = events(`
    T 0 0 new 1 name=a class=fair vr=100 vd=500
    T 0 0 new 2 name=b class=fair policy=idle vr=104 vd=400
    T 0 0 new 3 name=c class=fair policy=idle vr=300 vd=350`);
  const si = snapshot(idle, 0, views("eevdf"));
  assert.deepEqual([order(si), si.queues[0].tasks.map((t) => t.eligible)], [[1, 2, 3], [true, false, false]]);
  const m = events(`
    T 0 0 new 1 name=a class=fair lvl=0 used=0
    T 0 0 new 2 name=b class=fair lvl=0 used=0
    T 1 0 in 1 lvl=0 used=0
    T 9 0 out 1 why=preempt ran=8 lvl=1 used=0
    T 9 0 new 3 name=c class=fair lvl=0 used=0`);
  assert.deepEqual(order(snapshot(m, 9, views("mlfq"))), [2, 3, 1]);
  assert.deepEqual(order(snapshot(m, 9, views("lab-mlfq"))), [2, 3, 1], "a lab policy orders as the policy it reimplements");
});

test("per-hart queues follow rq=, migrations and the hart a task last ran on; lanes mark what happened", () => {
  const ev = events(`
    T 0 0 new 1 name=a class=fair rq=0 vr=0
    T 0 0 new 2 name=b class=fair rq=1 vr=0
    T 0 0 new 3 name=c class=fair rq=1 vr=5
    T 1 1 in 2 vr=0
    T 4 1 migrate 3 from=1 to=0 why=periodic vr=7
    T 6 1 out 2 why=block ran=5
    T 9 0 wake 2 rq=0 vr=1`);
  const s = snapshot(ev, 9, views("cfs"));
  assert.deepEqual(s.queues.map((q) => [q.hart, q.tasks.map((t) => t.tid)]), [[0, [1, 2, 3]], [1, []]]);
  assert.deepEqual(snapshot(ev, 6, views("cfs")).blocked, [{ tid: 2, name: "b", state: "block" }]);
  const lanes = new Lanes();
  lanes.add(ev);
  const b = lanes.tasks.get(2);
  assert.deepEqual(b.spans.map((x) => [x.s, x.e, x.st, x.h]), [[0, 1, "wait", null], [1, 6, "run", 1], [6, 9, "block", null], [9, null, "wait", null]]);
  assert.deepEqual(b.marks.map((x) => x.k), ["wake"]);
  assert.deepEqual(lanes.tasks.get(3).marks, [{ t: 4, k: "migrate", from: 1, to: 0 }]);
  assert.deepEqual(lanes.harts.get(1), [{ s: 1, e: 6, tid: 2 }]);
});

// On the real kernel's traces: every task a hart switches in is the head of the queue rebuilt
// from the events before it. (MLFQ's boost, O(1)'s array swap and CFS's pass over a task that
// just yielded act without an event of the tasks they move: docs/web.md.)
test("on real runs, each switch-in is the head of the rebuilt queue", () => {
  const runqueue = runqueueCli();
  for (const args of ["sched=cfs workload=spin", "sched=eevdf workload=fairness-unequal", "sched=sjf workload=fairness-unequal",
    "sched=stride workload=fairness-unequal", "sched=bvt workload=fairness-unequal", "sched=rr workload=fairness-unequal",
    "sched=cfs workload=spin smp=2 wl.tasks=5"]) {
    const file = join(mkdtempSync(join(tmpdir(), "rq-state-")), "events.txt");
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

test("CFS: the task that just yielded is marked until the queue's next pick", () => {
  const ev = events(`
    T 0 0 new 1 name=a class=fair vr=0
    T 0 0 new 2 name=b class=fair vr=5
    T 1 0 in 1 vr=0
    T 3 0 out 1 why=yield ran=2 vr=2
    T 4 0 in 2 vr=5`);
  assert.deepEqual(snapshot(ev, 3, views("cfs")).queues[0].tasks.map((t) => [t.tid, t.yielded]), [[1, true], [2, false]]);
  assert.deepEqual(snapshot(ev, 4, views("cfs")).queues[0].tasks.map((t) => [t.tid, t.yielded]), [[1, false]]);
  assert.equal(snapshot(ev, 3, views("eevdf")).queues[0].tasks[0].yielded, false, "only CFS has the skip");
});
