//! Shortest job first, with each task's next CPU burst predicted by exponential averaging
//! (Silberschatz: tau_{n+1} = a * t_n + (1 - a) * tau_n), and its preemptive variant,
//! shortest remaining time first (a new or woken task preempts when its predicted burst is
//! shorter than what the running task is predicted to have left). A burst is the CPU time
//! between a switch-in and the next yield or sleep; preemption does not end it. Defaults
//! follow the ArceOS student scheduler: a = 1/16, tau_0 = 0 (new tasks look shortest). A task
//! whose workload declares its burst (`workload=bursts`, `workload=arrivals`) starts from that
//! instead: the textbook's SJF, which knows each job's length.

use runqueue_sched_api::{Carry, Enqueue, Fields, Fraction, Int, Kind, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

tunables! {
    const TUNABLES;
    PREEMPT: Int = Setting::int(Tunable { name: "sjf.preempt", kind: Kind::Int { min: 0, max: 1 }, default: "0", unit: "", help: "0: non-preemptive SJF; 1: preemptive SRTF" });
    ALPHA: Fraction = Setting::fraction(Tunable {
        name: "sjf.alpha",
        kind: Kind::Fraction,
        default: "1/16",
        unit: "",
        help: "weight a of the last burst in the prediction tau' = a*t + (1-a)*tau",
    });
    TAU0: Int = Setting::int(Tunable {
        name: "sjf.tau0_ns",
        kind: Kind::Int { min: 0, max: 10_000_000_000 },
        default: "0",
        unit: "ns",
        help: "prediction for a task that has not run yet",
    });
}

pub const SPEC: SchedSpec<Sjf> = SchedSpec {
    name: "sjf",
    help: "shortest (predicted) job first; sjf.preempt=1 makes it shortest remaining time first",
    tunables: TUNABLES,
    queue: QueueView { order: &["pred"], show: &["pred"], pick: Pick::First },
    build: |s: &Settings, _: &Run| {
        let tau0 = s.get(&TAU0) as u64;
        Ok(Sjf {
            preemptive: s.get(&PREEMPT) == 1,
            alpha: s.get(&ALPHA),
            job: [Job { predicted: tau0, burst: 0, queued: false, seq: 0 }; MAX_TASKS],
            seq: 0,
        })
    },
};

#[derive(Clone, Copy)]
struct Job {
    predicted: u64,
    /// CPU time of the burst in progress.
    burst: u64,
    queued: bool,
    seq: u64,
}

pub struct Sjf {
    preemptive: bool,
    /// (p, q): a = p / q.
    alpha: (u64, u64),
    job: [Job; MAX_TASKS],
    seq: u64,
}

impl Sjf {
    /// The burst in progress is over: fold it into the prediction.
    fn end_burst(&mut self, tid: Tid) {
        let (p, q) = self.alpha;
        let j = &mut self.job[tid];
        j.predicted = (p * j.burst + (q - p) * j.predicted) / q;
        j.burst = 0;
    }
}

impl Scheduler for Sjf {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        if why == Enqueue::Yielded {
            self.end_burst(task.tid);
        }
        if why == Enqueue::New && task.burst_ns > 0 {
            self.job[task.tid].predicted = task.burst_ns;
        }
        self.seq += 1;
        let j = &mut self.job[task.tid];
        j.queued = true;
        j.seq = self.seq;
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let pick = (1..MAX_TASKS).filter(|&t| self.job[t].queued && allowed(t)).min_by_key(|&t| (self.job[t].predicted, self.job[t].seq))?;
        self.job[pick].queued = false;
        Some(pick)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        self.job[task.tid].burst += ran_ns;
    }

    fn tick(&mut self, _current: &Task, _now: u64) -> bool {
        false
    }

    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        let c = &self.job[current.tid];
        self.preemptive && self.job[woken.tid].predicted < c.predicted.saturating_sub(c.burst)
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.end_burst(task.tid);
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        out.field("pred", self.job[tid].predicted);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        out.field("pred", self.job[tid].predicted);
    }

    /// A move keeps the prediction and the burst in progress.
    fn detach(&mut self, task: &Task, _queued: bool, _now: u64) -> Option<Carry> {
        let j = &mut self.job[task.tid];
        j.queued = false;
        Some(Carry([j.predicted as i64, j.burst as i64, 0, 0, 0, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [predicted, burst, ..] = carry.0;
        self.seq += 1;
        self.job[task.tid] = Job { predicted: predicted as u64, burst: burst as u64, queued, seq: self.seq };
    }
}
