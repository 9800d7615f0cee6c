// Unit tests of the run queue rebuilt from trace events (book/widget/rq-state.js), in node with
// no build, on small hand-made traces in the kernel's line format (docs/trace.md).

import test from "node:test";
import assert from "node:assert/strict";
import { Lanes, snapshot } from "./rq-state.js";

// How the tests' queues are ordered: views of the catalog's shape (`QueueView`), named by what
// they do; the kernel's own are checked against real runs in web/tests/rq-state.test.mjs.
const CLASSES = [
  { name: "dl", rank: 2, queue: { order: ["dl"], show: ["dl", "left"], pick: "first" } },
  { name: "fifo", rank: 1, queue: { order: ["-prio"], show: ["prio"], pick: "first" } },
  { name: "rr", rank: 1, queue: { order: ["-prio"], show: ["prio"], pick: "first" } },
];
const FAIR = {
  vruntime: { order: ["vr"], show: ["vr"], pick: "skip-yielder" },
  // Every nice weighs 1024 here: only SCHED_IDLE's 3 differs.
  eligible: { order: ["vd"], show: ["vd", "lag", "vr"], pick: "eligible", weights: Array(40).fill(1024), idle_weight: 3 },
  level: { order: ["lvl"], show: ["lvl", "used"], pick: "first" },
};
const views = (fair) => ({ fair: FAIR[fair], classes: CLASSES });

const events = (text) => text.trim().split("\n").map((l) => {
  const [, t, h, k, id, ...kv] = l.trim().split(" ");
  return { t: +t, h: +h, k, id: +id, f: Object.fromEntries(kv.map((w) => w.split("=")).map(([a, b]) => [a, /^-?\d+$/.test(b) ? +b : b])) };
});
const order = (s, i = 0) => s.queues[i].tasks.map((t) => t.tid);

test("by vruntime: smallest first, ties to the earlier enqueued; a requeued task's out carries its new vruntime", () => {
  const ev = events(`
    T 0 0 new 1 name=a class=fair vr=100 min=100
    T 0 0 new 2 name=b class=fair vr=100 min=100
    T 0 0 new 3 name=c class=fair vr=90 min=90
    T 10 0 in 3 vr=90 min=90
    T 50 0 out 3 why=preempt ran=40 vr=130 min=100
    T 60 0 in 1 vr=100 min=100`);
  assert.deepEqual(order(snapshot(ev, 5, views("vruntime"))), [3, 1, 2]);
  const s = snapshot(ev, 55, views("vruntime"));
  assert.deepEqual(order(s), [1, 2, 3]);
  assert.equal(s.queues[0].min, 100);
  const later = snapshot(ev, 60, views("vruntime"));
  assert.deepEqual(order(later), [2, 3]);
  assert.equal(later.harts[0].running.tid, 1);
  const tie = events(`
    T 0 0 new 1 name=a class=fair vr=90
    T 0 0 new 2 name=b class=fair vr=100
    T 1 0 in 1 vr=90
    T 9 0 out 1 why=yield ran=8 vr=100`);
  assert.deepEqual(order(snapshot(tie, 9, views("vruntime"))), [2, 1], "equal vruntimes: the task enqueued first goes first");
});

test("real-time before fair, highest priority first; a preempted SCHED_FIFO task keeps the head of its level", () => {
  const ev = events(`
    T 0 0 new 1 name=f class=fair vr=0
    T 0 0 new 2 name=r1 class=fifo prio=10
    T 0 0 new 3 name=r2 class=fifo prio=10
    T 0 0 new 4 name=hi class=fifo prio=50
    T 1 0 in 2 prio=10
    T 5 0 out 2 why=preempt ran=4 prio=10`);
  assert.deepEqual(order(snapshot(ev, 5, views("vruntime"))), [4, 2, 3, 1]);
});

test("eligible tasks by virtual deadline, then the rest; by level, first come first within one", () => {
  const ev = events(`
    T 0 0 new 1 name=a class=fair vr=100 vd=400 lag=0
    T 0 0 new 2 name=b class=fair vr=50 vd=500 lag=0
    T 0 0 new 3 name=c class=fair vr=300 vd=350 lag=0`);
  const s = snapshot(ev, 0, views("eligible"));
  // The average vruntime is 150: a (100) and b (50) are eligible, c (300) is not.
  assert.deepEqual(order(s), [1, 2, 3]);
  assert.deepEqual(s.queues[0].tasks.map((t) => t.eligible), [true, true, false]);
  // A SCHED_IDLE task weighs what the policy says (3), not what its nice would: b and c barely
  // move the average (about 100.6), so only a is eligible.
  const idle = events(`
    T 0 0 new 1 name=a class=fair vr=100 vd=500
    T 0 0 new 2 name=b class=fair policy=idle vr=104 vd=400
    T 0 0 new 3 name=c class=fair policy=idle vr=300 vd=350`);
  const si = snapshot(idle, 0, views("eligible"));
  assert.deepEqual([order(si), si.queues[0].tasks.map((t) => t.eligible)], [[1, 2, 3], [true, false, false]]);
  const m = events(`
    T 0 0 new 1 name=a class=fair lvl=0 used=0
    T 0 0 new 2 name=b class=fair lvl=0 used=0
    T 1 0 in 1 lvl=0 used=0
    T 9 0 out 1 why=preempt ran=8 lvl=1 used=0
    T 9 0 new 3 name=c class=fair lvl=0 used=0`);
  assert.deepEqual(order(snapshot(m, 9, views("level"))), [2, 3, 1]);
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
  const s = snapshot(ev, 9, views("vruntime"));
  assert.deepEqual(s.queues.map((q) => [q.hart, q.tasks.map((t) => t.tid)]), [[0, [1, 2, 3]], [1, []]]);
  assert.deepEqual(snapshot(ev, 6, views("vruntime")).blocked, [{ tid: 2, name: "b", state: "block" }]);
  const lanes = new Lanes();
  lanes.add(ev);
  const b = lanes.tasks.get(2);
  assert.deepEqual(b.spans.map((x) => [x.s, x.e, x.st, x.h]), [[0, 1, "wait", null], [1, 6, "run", 1], [6, 9, "block", null], [9, null, "wait", null]]);
  assert.deepEqual(b.marks.map((x) => x.k), ["wake"]);
  assert.deepEqual(lanes.tasks.get(3).marks, [{ t: 4, k: "migrate", from: 1, to: 0 }]);
  assert.deepEqual(lanes.harts.get(1), [{ s: 1, e: 6, tid: 2 }]);
});

test("with the skip buddy, the task that just yielded is marked until the queue's next pick", () => {
  const ev = events(`
    T 0 0 new 1 name=a class=fair vr=0
    T 0 0 new 2 name=b class=fair vr=5
    T 1 0 in 1 vr=0
    T 3 0 out 1 why=yield ran=2 vr=2
    T 4 0 in 2 vr=5`);
  assert.deepEqual(snapshot(ev, 3, views("vruntime")).queues[0].tasks.map((t) => [t.tid, t.yielded]), [[1, true], [2, false]]);
  assert.deepEqual(snapshot(ev, 4, views("vruntime")).queues[0].tasks.map((t) => [t.tid, t.yielded]), [[1, false]]);
  assert.equal(snapshot(ev, 3, views("eligible")).queues[0].tasks[0].yielded, false, "only a view with the skip buddy marks it");
});
