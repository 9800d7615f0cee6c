// Who ran, who waited and who slept, and the run queue at any moment, rebuilt from the kernel's
// trace events (docs/trace.md). Pure data, no DOM: the unit tests run it in node.
//
// A task's policy state is the latest its events reported (`new`, `in`, `wake`, a requeued
// task's `out`, `state`, `migrate`); its place in the queue is its class's and its policy's own
// order over that state, ties broken by enqueue order. Each policy states that order in its
// `SchedSpec` (`queue`: the figures that order it, those shown, how the next is picked), and
// the kernel's catalog carries it here (`queueViews` in catalog.js): nothing here knows a policy.

/** A queue in arrival order with no figures, for a scheduler the catalog does not describe. */
const ARRIVAL = { order: [], show: [], pick: "first" };

// `order` keys compare smallest first; a `-` before one compares it largest first.
const keyOf = (order, fields) => order.map((k) => (k.startsWith("-") ? -(fields[k.slice(1)] ?? 0) : fields[k] ?? 0));

const LEAVE = { preempt: "wait", yield: "wait", sleep: "sleep", block: "block", exit: "exit" };

/** Replays events in order; `at(t)` is the state after every event at or before `t`. */
class Replay {
  constructor() {
    this.tasks = new Map(); // tid -> {tid, name, cls, policy, nice, state, hart, queue, seq, fields}
    this.running = new Map(); // hart -> tid
    this.min = new Map(); // queue (hart, or -1 for the one global queue) -> last min=
    this.seq = 0;
    this.perHart = false;
    this.skip = new Map(); // queue -> the task that yielded there since its last pick
  }

  task(tid) {
    let t = this.tasks.get(tid);
    if (!t) this.tasks.set(tid, (t = { tid, name: `task ${tid}`, cls: "fair", policy: "normal", nice: 0, state: "new", hart: null, queue: null, seq: 0, fields: {} }));
    return t;
  }

  enqueue(t, front = false) {
    t.state = "wait";
    t.seq = front ? -++this.seq : ++this.seq;
  }

  apply(e) {
    if (e.id === 0 || e.k === "mark") return;
    const t = this.task(e.id);
    const f = e.f;
    for (const [k, v] of Object.entries(f)) if (typeof v === "number" && !["ran", "rq", "from", "to", "nice", "cpu", "wait"].includes(k)) t.fields[k] = v;
    if ("rq" in f) {
      this.perHart = true;
      t.queue = f.rq;
    }
    switch (e.k) {
      case "new":
        if (typeof f.name === "string") t.name = f.name;
        if (typeof f.class === "string") t.cls = f.class;
        if (typeof f.policy === "string") t.policy = f.policy;
        if (typeof f.nice === "number") t.nice = f.nice;
        this.enqueue(t);
        break;
      case "wake":
        this.enqueue(t);
        break;
      case "in":
        this.skip.delete(this.perHart ? e.h : -1); // a pick clears CFS's skip
        t.state = "run";
        t.hart = e.h;
        t.queue = e.h;
        t.since = e.t;
        this.running.set(e.h, e.id);
        break;
      case "out":
        if (this.running.get(e.h) === e.id) this.running.delete(e.h);
        t.hart = null;
        if (f.why === "yield") this.skip.set(this.perHart ? e.h : -1, e.id);
        if (LEAVE[f.why] === "wait") this.enqueue(t, t.cls === "fifo" && f.why === "preempt"); // Linux: a preempted FIFO task keeps its place at the head
        else t.state = LEAVE[f.why] ?? "wait";
        break;
      case "exit":
        t.state = "exit";
        break;
      case "migrate":
        this.perHart = true;
        t.queue = f.to;
        if (t.state === "wait") t.seq = ++this.seq;
        break;
    }
    if ("min" in f) this.min.set(this.perHart ? t.queue ?? e.h : -1, f.min);
  }
}

/**
 * The run queue(s) at one moment, in the order `views` gives: `{fair, classes}`, the fair
 * policy's queue view and the classes above it (`[{name, rank, queue}]`), from the catalog.
 */
export function snapshot(events, t, views) {
  const r = new Replay();
  let i = 0;
  for (; i < events.length && events[i].t <= t; i++) r.apply(events[i]);
  const order = { ...ARRIVAL, ...views?.fair };
  const classes = new Map((views?.classes ?? []).map((c) => [c.name, c]));
  const tasks = [...r.tasks.values()];
  const queues = new Map(r.perHart ? [...new Set(events.slice(0, i).map((e) => e.h))].map((h) => [h, []]) : []);
  for (const task of tasks.filter((x) => x.state === "wait")) {
    const q = r.perHart ? task.queue ?? 0 : -1;
    if (!queues.has(q)) queues.set(q, []);
    queues.get(q).push(task);
  }
  const harts = [...new Set([...r.running.keys(), ...events.map((e) => e.h)])].sort((a, b) => a - b);
  const view = (task) => ({ tid: task.tid, name: task.name, cls: task.cls, fields: shown(task, classes.get(task.cls)?.queue ?? order) });
  const result = {
    t,
    events: i,
    perHart: r.perHart,
    harts: harts.map((h) => {
      const tid = r.running.get(h);
      return { hart: h, running: tid ? view(r.tasks.get(tid)) : null };
    }),
    queues: [...queues.entries()].sort(([a], [b]) => a - b).map(([q, list]) => ({
      hart: q < 0 ? null : q,
      min: r.min.get(q) ?? null,
      tasks: sortQueue(list, order, classes, r, t).map((x) => ({ ...view(x), eligible: x.eligible, yielded: order.pick === "skip-yielder" && r.skip.get(q) === x.tid })),
    })),
    random: order.pick === "draw",
    blocked: tasks.filter((x) => x.state === "block" || x.state === "sleep").map((x) => ({ tid: x.tid, name: x.name, state: x.state })),
  };
  return result;
}

function shown(task, view) {
  return Object.fromEntries(view.show.filter((k) => k in task.fields).map((k) => [k, task.fields[k]]));
}

// Higher classes first (deadline, then real-time: ranks from the catalog), each in its own
// order, then the fair class in its policy's.
function sortQueue(list, order, classes, r, t) {
  const eligibility = order.pick === "eligible";
  if (eligibility) markEligible(list, r, t, order);
  const rank = (x) => -(classes.get(x.cls)?.rank ?? 0);
  const key = (x) => {
    const cls = classes.get(x.cls);
    if (cls) return keyOf(cls.queue.order, x.fields);
    if (eligibility) return [x.eligible ? 0 : 1, ...(x.eligible ? keyOf(order.order, x.fields) : [x.fields.vr ?? 0])];
    return keyOf(order.order, x.fields);
  };
  return list.map((x) => ({ x, k: [rank(x), ...key(x), x.seq] })).sort((a, b) => {
    for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return a.k[i] - b.k[i];
    return 0;
  }).map(({ x }) => x);
}

// EEVDF (`pick: "eligible"`): eligible when the task's vruntime is at most the weighted average
// of the runnable tasks' (its lag >= 0), each weighing what the policy's `weights` give its nice
// (`idle_weight` under SCHED_IDLE); the running task's vruntime has grown since it was switched in.
function markEligible(list, r, t, { weights, idle_weight: idle }) {
  const weightOf = (x) => (x.policy === "idle" ? idle : weights[Math.max(-20, Math.min(19, x.nice ?? 0)) + 20]);
  const runnable = [...r.tasks.values()].filter((x) => (x.state === "wait" || x.state === "run") && x.cls === "fair" && "vr" in x.fields);
  const vr = (x) => (x.state === "run" ? x.fields.vr + ((t - x.since) * weights[20]) / weightOf(x) : x.fields.vr);
  for (const x of list) {
    const peers = runnable.filter((y) => !r.perHart || (y.state === "run" ? y.hart : y.queue) === x.queue);
    const total = peers.reduce((n, y) => n + weightOf(y), 0);
    x.eligible = peers.reduce((n, y) => n + weightOf(y) * (vr(y) - x.fields.vr), 0) >= 0 && total > 0;
  }
}

/**
 * Lanes from the same events: per task its stints of running (on which hart), waiting and
 * blocked or sleeping, and its wakeups, preemptions and migrations; per hart who ran when.
 * Grows as events arrive (`add`), so the view follows a live run.
 */
export class Lanes {
  constructor() {
    this.events = [];
    this.tasks = new Map(); // tid -> {tid, name, spans: [{s, e, st, h}], marks: [{t, k, to}]}
    this.harts = new Map(); // hart -> [{s, e, tid}]
    this.open = new Map(); // tid -> open span
    this.start = null;
    this.end = 0;
    this.version = 0;
  }

  lane(tid) {
    let l = this.tasks.get(tid);
    if (!l) this.tasks.set(tid, (l = { tid, name: `task ${tid}`, spans: [], marks: [] }));
    return l;
  }

  begin(l, t, st, h = null) {
    const o = this.open.get(l.tid);
    if (o) o.e = t;
    const span = { s: t, e: null, st, h };
    l.spans.push(span);
    this.open.set(l.tid, span);
  }

  add(events) {
    for (const e of events) {
      // The modelled host's steal is not the guest's scheduling (the timeline shows it).
      if (e.k === "steal") continue;
      this.events.push(e);
      this.start ??= e.t;
      this.end = Math.max(this.end, e.t);
      if (!this.harts.has(e.h)) this.harts.set(e.h, []);
      if (e.id === 0) continue;
      const l = this.lane(e.id);
      switch (e.k) {
        case "new":
          if (typeof e.f.name === "string") l.name = e.f.name;
          this.begin(l, e.t, "wait");
          break;
        case "wake":
          l.marks.push({ t: e.t, k: "wake" });
          this.begin(l, e.t, "wait");
          break;
        case "in":
          this.begin(l, e.t, "run", e.h);
          this.harts.get(e.h).push({ s: e.t, e: null, tid: e.id });
          break;
        case "out": {
          const stints = this.harts.get(e.h);
          const last = stints[stints.length - 1];
          if (last && last.tid === e.id && last.e === null) last.e = e.t;
          if (e.f.why === "preempt") l.marks.push({ t: e.t, k: "preempt" });
          const st = LEAVE[e.f.why] ?? "wait";
          if (st === "exit") {
            const o = this.open.get(e.id);
            if (o) o.e = e.t;
            this.open.delete(e.id);
          } else this.begin(l, e.t, st);
          break;
        }
        case "migrate":
          l.marks.push({ t: e.t, k: "migrate", from: e.f.from, to: e.f.to });
          break;
      }
    }
    if (events.length) this.version++;
  }

  /** Times of every event, for stepping the cursor event by event. */
  eventTimes() {
    return this.events.map((e) => e.t);
  }
}
