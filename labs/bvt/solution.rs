//! Reference solution of the BVT lab (`labs/bvt/README.md`): a waking task is placed at
//! max(A, SVT), so a sleeper keeps no credit, and a task with warp W competes with
//! E = A - W. Instructors only.

use runqueue_sched_api::{Enqueue, Fields, Int, Kind, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

tunables! {
    const TUNABLES;
    CSA: Int = Setting::int(Tunable {
    name: "lab.bvt.csa_us",
    kind: Kind::Int { min: 0, max: 1_000_000 },
    default: "1000",
    unit: "us",
    help: "context-switch allowance C: a tick or a wakeup switches only when another task's E is this much smaller",
});
}

pub const SPEC: SchedSpec<Bvt> = SchedSpec {
    name: "lab-bvt",
    help: "lab: borrowed virtual time, with the wakeup placement and warp written by the student",
    tunables: TUNABLES,
    queue: QueueView { order: &["evt"], show: &["avt", "evt", "warp"], pick: Pick::First },
    build: |s: &Settings, _: &Run| {
        Ok(Bvt { csa: s.get(&CSA) as u64 * 1000, svt: 0, tasks: [Vt::NONE; MAX_TASKS] })
    },
};

#[derive(Clone, Copy)]
struct Vt {
    /// Actual virtual time A: CPU time run, in ns (every task weighs the same in this lab).
    avt: u64,
    /// Warp W, in ns of virtual time (the command line's `warp_us=`; 0: never warped).
    warp: u64,
    /// Queued or running (what SVT is the minimum over).
    runnable: bool,
    /// In the queue, waiting for a hart.
    queued: bool,
}

impl Vt {
    const NONE: Vt = Vt { avt: 0, warp: 0, runnable: false, queued: false };
}

pub struct Bvt {
    csa: u64,
    /// Scheduler virtual time: the smallest A among runnable tasks, never decreasing.
    svt: u64,
    tasks: [Vt; MAX_TASKS],
}

impl Bvt {
    /// The A a task that went to sleep with A = `avt` gets when it wakes (`self.svt` is SVT).
    fn place(&self, avt: u64) -> u64 {
        avt.max(self.svt)
    }

    /// The effective virtual time E of `tid`, which `pick_next`, `tick` and
    /// `wakeup_preempts` compare.
    fn effective(&self, tid: Tid) -> i64 {
        let v = &self.tasks[tid];
        v.avt as i64 - v.warp as i64
    }

    fn update_svt(&mut self) {
        let smallest = self.tasks.iter().filter(|v| v.runnable).map(|v| v.avt).min();
        if let Some(a) = smallest {
            self.svt = self.svt.max(a);
        }
    }

    /// Whether `other` should take the CPU from `current`: E smaller by at least C.
    fn beats(&self, other: Tid, current: Tid) -> bool {
        self.effective(other) <= self.effective(current) - self.csa as i64
    }

    /// The queued task with the smallest E (ties: the lowest tid) that `ok` accepts.
    fn first(&self, ok: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        (1..MAX_TASKS).filter(|&t| self.tasks[t].queued && ok(t)).min_by_key(|&t| self.effective(t))
    }
}

impl Scheduler for Bvt {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        let tid = task.tid;
        match why {
            Enqueue::New => self.tasks[tid] = Vt { avt: self.svt, warp: task.warp_ns, ..Vt::NONE },
            Enqueue::Wakeup => self.tasks[tid].avt = self.place(self.tasks[tid].avt),
            Enqueue::Preempted | Enqueue::Yielded => {}
        }
        let v = &mut self.tasks[tid];
        v.runnable = true;
        v.queued = true;
        self.update_svt();
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let tid = self.first(allowed)?;
        self.tasks[tid].queued = false;
        Some(tid)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        self.tasks[task.tid].avt += ran_ns;
        self.update_svt();
    }

    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        self.first(&|_| true).is_some_and(|t| self.beats(t, current.tid))
    }

    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        self.beats(woken.tid, current.tid)
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.tasks[task.tid].runnable = false;
        self.update_svt();
    }

    fn exit(&mut self, task: &Task) {
        self.block(task, 0);
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        out.field("avt", self.tasks[tid].avt).field_int("evt", self.effective(tid));
    }
}
