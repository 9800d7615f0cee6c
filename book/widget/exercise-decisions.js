// "You are the scheduler": the decisions of a finished run, and why the kernel made each one.
// Pure data, no DOM (the unit tests run it in node on real traces); the exercise's page part is
// scheduler-exercise.js.
//
// A decision is a task switched in (`in`) while its hart's queue held two tasks or more: the
// queue then is rebuilt from the events before it (rq-state.js, in the order the policy states
// in the catalog), and what told the kernel's pick from another task is the first of the
// policy's keys that differs between them. Nothing here knows a policy by name: the catalog's
// `QueueView` says which keys order the queue and how the next task is picked. With a queue per
// hart and two harts or more, a task's arrival or wakeup is a decision too: which hart's queue
// it joins (the event's `rq`); what the kernel knew then (each hart's task and queue, the hart
// the task last ran on, the hart the wakeup ran on) is shown beside its answer.

import { snapshot } from "./rq-state.js";

/** At most this many decisions are asked about: a long run is a long exercise otherwise. */
export const MAX_DECISIONS = 30;

/** Whether a run of this policy can be played: a draw (lottery) has no rule a student could apply. */
export function playable(views) {
  return (views?.fair?.pick ?? "first") !== "draw";
}

/**
 * The decisions of a run, in order: the placements (`placement`) and the picks, `{kind: "pick",
 * index, t, hart, picked, candidates, others}`. `candidates`
 * are the queue's tasks before the switch, in the kernel's order (`{tid, name, cls, fields,
 * eligible, yielded, since}`: `since` is when the task last joined the queue); `others` what the
 * other harts ran. A switch the rebuilt queue cannot explain (an MLFQ boost or an O(1) array
 * swap acts without an event of the tasks it moves: docs/web.md) is played without a question.
 */
export function decisions(events, views, max = MAX_DECISIONS) {
  const harts = [...new Set(events.map((e) => e.h))].sort((a, b) => a - b);
  const names = new Map();
  const last = new Map(); // tid -> the hart it last ran on
  const since = new Map();
  // Runnable tasks not running: a switch with fewer than two has no choice, and costs no replay.
  const waiting = new Set();
  const found = [];
  for (let i = 0; i < events.length && found.length < max; i++) {
    const e = events[i];
    if (e.k === "new") names.set(e.id, e.f.name ?? `task ${e.id}`);
    if (["new", "wake"].includes(e.k) && "rq" in e.f && harts.length >= 2) found.push(placement(events, i, views, harts, names, last));
    if (e.k === "in") last.set(e.id, e.h);
    if (["new", "wake"].includes(e.k) || (e.k === "out" && ["preempt", "yield"].includes(e.f.why))) {
      since.set(e.id, e.t);
      waiting.add(e.id);
    } else if (e.k === "out" || e.k === "exit") waiting.delete(e.id);
    if (e.k !== "in") continue;
    const choice = waiting.size >= 2;
    waiting.delete(e.id);
    if (!choice) continue;
    const s = snapshot(events.slice(0, i), e.t, views);
    const queue = s.queues.find((q) => q.hart === null || q.hart === e.h)?.tasks ?? [];
    if (queue.length < 2 || !queue.some((x) => x.tid === e.id)) continue;
    const candidates = queue.map((x) => ({ ...x, since: since.get(x.tid) ?? null }));
    if (predict(candidates, views) !== e.id) continue;
    const others = s.harts.filter((h) => h.hart !== e.h).map((h) => ({ hart: h.hart, running: h.running }));
    found.push({ kind: "pick", index: i, t: e.t, hart: e.h, picked: e.id, candidates, others });
  }
  return found;
}

/**
 * The arrival or wakeup `events[i]` as a decision of where it goes: `{kind: "place", index, t,
 * tid, name, placed, harts, previous, from}`: `placed` the hart whose queue the kernel put it
 * in; `harts` what each hart held just before (`{hart, running, waiting}`: the running task's
 * name or null, how many waited in its queue); `previous` the hart the task last ran on (null
 * for a new task); `from` the hart the wakeup or creation ran on.
 */
function placement(events, i, views, harts, names, last) {
  const e = events[i];
  const s = snapshot(events.slice(0, i), e.t, views);
  const held = harts.map((hart) => ({
    hart,
    running: s.harts.find((h) => h.hart === hart)?.running?.name ?? null,
    waiting: s.queues.find((q) => q.hart === hart)?.tasks.length ?? 0,
  }));
  return { kind: "place", index: i, t: e.t, tid: e.id, name: names.get(e.id) ?? `task ${e.id}`, placed: e.f.rq, harts: held, previous: last.get(e.id) ?? null, from: e.h };
}

/**
 * The task the policy's rule picks from `candidates` (in the queue's order): the first, or under
 * CFS's skip buddy the first that did not just yield.
 */
export function predict(candidates, views) {
  if ((views?.fair?.pick ?? "first") === "skip-yielder") return (candidates.find((x) => !x.yielded) ?? candidates[0]).tid;
  return candidates[0].tid;
}

/**
 * A pick of `tid` at `decision`: `{right, reason}`. The reason says what told the kernel's pick
 * (`kernel`) from the student's (`yours`): `class` (a class that ranks above), `ineligible`
 * (EEVDF: negative lag), `yielded` (CFS passes over a task that just yielded), `key` (the first
 * of the policy's keys that differs: `key`, `better` "lower" or "higher", both values), or
 * `order` (equal keys, or a queue with none: the kernel's pick joined the queue first).
 */
export function judge(decision, tid, views) {
  const kernel = decision.candidates.find((x) => x.tid === decision.picked);
  const yours = decision.candidates.find((x) => x.tid === tid);
  if (!yours) throw new Error(`task ${tid} is not in the queue at this decision`);
  return { right: tid === decision.picked, kernel, yours, reason: tid === decision.picked ? null : reason(kernel, yours, views) };
}

function reason(kernel, yours, views) {
  const classes = new Map((views?.classes ?? []).map((c) => [c.name, c]));
  const rank = (x) => classes.get(x.cls)?.rank ?? 0;
  if (rank(kernel) !== rank(yours)) return { kind: "class" };
  const view = classes.get(kernel.cls)?.queue ?? views?.fair ?? { order: [], pick: "first" };
  if (view.pick === "eligible" && kernel.eligible !== yours.eligible) return { kind: "ineligible" };
  if (view.pick === "skip-yielder" && yours.yielded) return { kind: "yielded" };
  // An EEVDF queue orders the ineligible by vruntime alone; the eligible by `order`.
  const order = view.pick === "eligible" && !kernel.eligible ? ["vr"] : view.order ?? [];
  for (const k of order) {
    const key = k.replace(/^-/, "");
    const [a, b] = [kernel.fields[key] ?? 0, yours.fields[key] ?? 0];
    if (a !== b) return { kind: "key", key, better: k.startsWith("-") ? "higher" : "lower", kernelValue: a, yoursValue: b };
  }
  return { kind: "order", keyed: order.length > 0 };
}

/** A placement of the task on `hart` at `decision` (a `place` one): `{right}`. */
export function judgePlace(decision, hart) {
  if (!decision.harts.some((h) => h.hart === hart)) throw new Error(`hart ${hart} is not one of this run's`);
  return { right: hart === decision.placed };
}

/** The score of a played exercise: `{right, total, percent}`. */
export function score(answers) {
  const right = answers.filter((a) => a.right).length;
  return { right, total: answers.length, percent: answers.length ? Math.round((100 * right) / answers.length) : 0 };
}
