// The runs the exercise's unit tests replay (capture-exercise.mjs records them), and the
// trace line reader they share.

export const RUNS = {
  fifo: "sched=fifo workload=arrivals",
  rr: "sched=rr workload=arrivals",
  sjf: "sched=sjf workload=arrivals",
  stcf: "sched=sjf workload=arrivals sjf.preempt=1",
  mlfq: "sched=mlfq workload=intr wl.tasks=1 wl.hogs=2 wl.run_ms=100",
  cfs: "sched=cfs workload=intr wl.tasks=1 wl.hogs=2 wl.run_ms=60",
  cfsyield: "sched=cfs workload=fairness-equal wl.tasks=3 wl.units=4",
  eevdf: "sched=eevdf workload=intr wl.tasks=1 wl.hogs=2 wl.run_ms=25",
  rr2: "sched=rr workload=fairness-equal wl.tasks=4 wl.units=3 smp=2",
  mlfq2: "sched=mlfq workload=intr wl.tasks=2 wl.hogs=1 wl.run_ms=100 smp=2",
  cfs2: "sched=cfs workload=spin smp=2 wl.tasks=4 wl.run_ms=30 rq=perhart",
  eevdf2: "sched=eevdf workload=spin smp=2 wl.tasks=4 wl.run_ms=30",
};

/** Trace lines (docs/trace.md) as the page's events `{t, h, k, id, f}`. */
export function parseEvents(text) {
  return text.trim().split("\n").map((l) => {
    const [tag, t, h, k, id, ...kv] = l.trim().split(" ");
    if (tag !== "T" || kv.some((w) => !w.includes("="))) throw new Error(`not a trace line: ${l}`);
    return { t: +t, h: +h, k, id: +id, f: Object.fromEntries(kv.map((w) => w.split("=")).map(([a, b]) => [a, /^-?\d+$/.test(b) ? +b : b])) };
  });
}
