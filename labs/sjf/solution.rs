//! Reference solution of the SJF lab (`labs/sjf/README.md`): shortest predicted burst first,
//! with the prediction an exponential average of the task's past bursts, and (with
//! `lab.sjf.preempt=1`) shortest remaining time first on wakeups. Instructors only.

use runqueue_sched_api::{Enqueue, Fields, Fraction, Int, Kind, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

tunables! {
    const TUNABLES;
    PREEMPT: Int = Setting::int(Tunable { name: "lab.sjf.preempt", kind: Kind::Int { min: 0, max: 1 }, default: "0", unit: "", help: "0: SJF; 1: SRTF (a waking task may preempt)" });
    ALPHA: Fraction = Setting::fraction(Tunable { name: "lab.sjf.alpha", kind: Kind::Fraction, default: "1/2", unit: "", help: "weight of the last burst: pred' = (p*burst + (q-p)*pred) / q for alpha = p/q" });
    TAU0: Int = Setting::int(Tunable { name: "lab.sjf.tau0_ns", kind: Kind::Int { min: 0, max: 10_000_000_000 }, default: "5000000", unit: "ns", help: "prediction of a task that has not run yet" });
}

pub const SPEC: SchedSpec<Sjf> = SchedSpec {
    name: "lab-sjf",
    help: "lab: shortest predicted burst first (lab.sjf.preempt=1: shortest remaining time first)",
    tunables: TUNABLES,
    queue: QueueView { order: &["pred"], show: &["pred"], pick: Pick::First },
    build: |s: &Settings, _: &Run| {
        let initial = Burst { predicted: s.get(&TAU0) as u64, running: 0, ready: false };
        Ok(Sjf {
            preemptive: s.get(&PREEMPT) == 1,
            alpha: s.get(&ALPHA),
            tasks: [initial; MAX_TASKS],
        })
    },
};

#[derive(Clone, Copy)]
struct Burst {
    /// The predicted length of the task's next CPU burst, in ns.
    predicted: u64,
    /// CPU time of the burst in progress (a preemption does not end a burst).
    running: u64,
    ready: bool,
}

pub struct Sjf {
    preemptive: bool,
    /// alpha = p / q.
    alpha: (u64, u64),
    tasks: [Burst; MAX_TASKS],
}

impl Sjf {
    /// The burst in progress ended (the task yielded or went to sleep): fold it in.
    fn finish_burst(&mut self, tid: Tid) {
        let (p, q) = self.alpha;
        let b = &mut self.tasks[tid];
        b.predicted = (p * b.running + (q - p) * b.predicted) / q;
        b.running = 0;
    }
}

impl Scheduler for Sjf {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        if why == Enqueue::Yielded {
            self.finish_burst(task.tid);
        }
        self.tasks[task.tid].ready = true;
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        // Ties go to the lowest tid: `min_by_key` keeps the first of equal keys.
        let tid = (1..MAX_TASKS).filter(|&t| self.tasks[t].ready && allowed(t)).min_by_key(|&t| self.tasks[t].predicted)?;
        self.tasks[tid].ready = false;
        Some(tid)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        self.tasks[task.tid].running += ran_ns;
    }

    fn tick(&mut self, _current: &Task, _now: u64) -> bool {
        false
    }

    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        let cur = &self.tasks[current.tid];
        self.preemptive && self.tasks[woken.tid].predicted < cur.predicted.saturating_sub(cur.running)
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.finish_burst(task.tid);
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        out.field("pred", self.tasks[tid].predicted);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        out.field("pred", self.tasks[tid].predicted);
    }
}
