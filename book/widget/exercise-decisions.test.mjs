// Unit tests of "you are the scheduler" (book/widget/exercise-decisions.js), in node with no
// build, on the real kernel's runs (testdata/exercise-traces.json: capture-exercise.mjs records
// them with each scheduler's queue views from the kernel's catalog).

import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { decisions, judge, judgePlace, playable, predict, score } from "./exercise-decisions.js";
import { snapshot } from "./rq-state.js";
import { RUNS, parseEvents } from "./testdata/exercise-runs.mjs";

const RECORDED = JSON.parse(readFileSync(new URL("./testdata/exercise-traces.json", import.meta.url), "utf8"));
const run = (name) => ({ ...RECORDED[name], events: parseEvents(RECORDED[name].trace.join("\n")) });

// What may tell the kernel's pick from another task, per policy: FIFO and round robin only the
// order the tasks joined the queue; the others their keys first.
const REASONS = {
  fifo: ["order"], rr: ["order"], rr2: ["order"],
  sjf: ["key:pred", "order"], stcf: ["key:pred", "order"],
  mlfq: ["key:lvl", "order"], mlfq2: ["key:lvl", "order"],
  cfs: ["key:vr", "order"], cfsyield: ["yielded", "key:vr", "order"], cfs2: ["key:vr", "yielded", "order"],
  eevdf: ["ineligible", "key:vd", "key:vr", "order"], eevdf2: ["ineligible", "key:vd", "key:vr", "order"],
};

test("the recorded runs are the runs the tests name", () => {
  assert.deepEqual(Object.keys(RECORDED).sort(), Object.keys(RUNS).sort());
  for (const [name, args] of Object.entries(RUNS)) assert.equal(RECORDED[name].args, args, `${name}: rerun capture-exercise.mjs`);
});

test("every switch with a choice is a decision, and the policy's rule picks what the kernel picked", () => {
  for (const name of Object.keys(RUNS)) {
    const { events, views } = run(name);
    let choices = 0;
    events.forEach((e, i) => {
      if (e.k !== "in") return;
      const s = snapshot(events.slice(0, i), e.t, views);
      const queue = s.queues.find((q) => q.hart === null || q.hart === e.h)?.tasks ?? [];
      if (queue.length < 2) return;
      // CFS passes over a task that yielded only for one within the wakeup granularity of it
      // (`pick_next_entity`): a gap the trace does not show, so no question is asked there.
      if (views.fair.pick === "skip-yielder" && queue[0].yielded && queue[0].tid === e.id) return;
      choices++;
      assert.equal(predict(queue, views), e.id, `${name}: event ${i} (t=${e.t}) switches in task ${e.id}`);
    });
    const found = decisions(events, views, Infinity).filter((d) => d.kind === "pick");
    assert.equal(found.length, choices, `${name}: one decision per switch with a choice`);
    assert.ok(found.length >= 5, `${name}: ${found.length} decisions`);
    for (const d of found) {
      assert.equal(events[d.index].k, "in");
      assert.equal(events[d.index].id, d.picked);
      assert.equal(events[d.index].h, d.hart);
      assert.ok(d.candidates.length >= 2 && d.candidates.some((c) => c.tid === d.picked), `${name}: the pick is among two or more candidates`);
      // The queue before the switch: no candidate runs on another hart at that moment.
      for (const o of d.others) assert.ok(!d.candidates.some((c) => c.tid === o.running?.tid), `${name}: a running task is no candidate`);
    }
    assert.equal(decisions(events, views, 3).length, 3, "at most `max` decisions");
  }
});

test("two-hart runs decide on both harts", () => {
  for (const name of ["rr2", "mlfq2", "cfs2", "eevdf2"]) {
    const { events, views } = run(name);
    const harts = new Set(decisions(events, views, Infinity).filter((d) => d.kind === "pick").map((d) => d.hart));
    assert.deepEqual([...harts].sort(), [0, 1], name);
  }
});

test("a wrong pick says what told the kernel's pick from it, and that is true of the two tasks", () => {
  for (const name of Object.keys(RUNS)) {
    const { events, views } = run(name);
    const seen = new Set();
    for (const d of decisions(events, views, Infinity).filter((d) => d.kind === "pick")) {
      assert.deepEqual(judge(d, d.picked, views), { right: true, kernel: d.candidates.find((c) => c.tid === d.picked), yours: d.candidates.find((c) => c.tid === d.picked), reason: null });
      for (const c of d.candidates.filter((c) => c.tid !== d.picked)) {
        const { right, kernel, yours, reason } = judge(d, c.tid, views);
        assert.equal(right, false);
        const kind = reason.kind === "key" ? `key:${reason.key}` : reason.kind;
        seen.add(kind);
        assert.ok(REASONS[name].includes(kind), `${name} t=${d.t}: ${kind} is not one of ${REASONS[name]}`);
        const where = `${name} t=${d.t}: kernel ${kernel.tid} vs ${yours.tid}`;
        switch (reason.kind) {
          case "key":
            assert.equal(reason.kernelValue, kernel.fields[reason.key], where);
            assert.equal(reason.yoursValue, yours.fields[reason.key], where);
            assert.ok(reason.better === "lower" ? reason.kernelValue < reason.yoursValue : reason.kernelValue > reason.yoursValue, `${where}: ${JSON.stringify(reason)}`);
            break;
          case "order":
            assert.ok(kernel.since <= yours.since, `${where}: the kernel's pick joined the queue first (${kernel.since} vs ${yours.since})`);
            break;
          case "ineligible":
            assert.ok(kernel.eligible && !yours.eligible, where);
            break;
          case "yielded":
            assert.ok(yours.yielded, where);
            break;
        }
      }
    }
    // The run shows the policy's own key deciding, not only the queue's order.
    if (REASONS[name][0] !== "order") assert.ok(seen.has(REASONS[name][0]), `${name}: ${REASONS[name][0]} decides somewhere (saw ${[...seen]})`);
  }
});

test("with a queue per hart, each arrival and wakeup asks which hart's queue the task joins, and says what each hart held", () => {
  for (const name of Object.keys(RUNS)) {
    const { events, views } = run(name);
    const places = decisions(events, views, Infinity).filter((d) => d.kind === "place");
    const asked = events.filter((e) => ["new", "wake"].includes(e.k) && "rq" in e.f);
    const harts = new Set(events.map((e) => e.h));
    assert.equal(places.length, harts.size >= 2 ? asked.length : 0, `${name}: a placement per arrival and wakeup on two harts or more`);
    for (const d of places) {
      const e = events[d.index];
      assert.ok(["new", "wake"].includes(e.k) && e.id === d.tid && e.t === d.t, `${name}: decision at event ${d.index}`);
      assert.equal(d.placed, e.f.rq, `${name} t=${d.t}: the kernel's hart is the event's queue`);
      assert.deepEqual(judgePlace(d, d.placed), { right: true });
      for (const h of d.harts.filter((h) => h.hart !== d.placed)) assert.deepEqual(judgePlace(d, h.hart), { right: false });
      // What the page shows beside the answer, recomputed from the events before it.
      const before = events.slice(0, d.index);
      const lastIn = before.filter((x) => x.k === "in" && x.id === d.tid).at(-1);
      assert.equal(d.previous, lastIn?.h ?? null, `${name} t=${d.t}: the hart it last ran on`);
      assert.equal(d.from, e.h);
      for (const h of d.harts) {
        const ins = before.filter((x) => x.h === h.hart && ["in", "out"].includes(x.k));
        const running = ins.at(-1)?.k === "in" ? ins.at(-1).id : null;
        assert.equal(h.running !== null, running !== null && running !== 0, `${name} t=${d.t}: whether hart ${h.hart} ran a task`);
        assert.ok(h.waiting >= 0);
      }
    }
  }
  assert.throws(() => judgePlace(decisions(run("rr2").events, run("rr2").views, Infinity).find((d) => d.kind === "place"), 7), /hart 7 is not one of this run's/);
});

test("a task not in the queue cannot be picked; a lottery has no rule to play", () => {
  const { events, views } = run("cfs");
  const [d] = decisions(events, views, 1);
  assert.equal(d.kind, "pick", "one hart: only picks");
  assert.throws(() => judge(d, 999, views), /task 999 is not in the queue/);
  assert.equal(playable(views), true);
  assert.equal(playable({ fair: { order: [], show: ["tickets"], pick: "draw" }, classes: [] }), false);
});

test("the score is the share of right picks", () => {
  assert.deepEqual(score([{ right: true }, { right: false }, { right: true }]), { right: 2, total: 3, percent: 67 });
  assert.deepEqual(score([]), { right: 0, total: 0, percent: 0 });
});
