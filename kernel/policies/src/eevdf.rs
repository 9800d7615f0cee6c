//! EEVDF as Linux 6.6 has it (`kernel/sched/fair.c` after commit 147f3efaa241, and
//! `Documentation/scheduler/sched-eevdf.rst`), one instance per run queue.
//! Each task has a vruntime v (CPU time / weight, like CFS) and a virtual deadline
//! `vd = v + slice / weight`. The queue's average vruntime `V = sum(w v) / sum(w)` over the
//! runnable tasks (running ones included) defines lag `V - v`: a task is eligible when its lag
//! is not negative, and the eligible task with the earliest virtual deadline runs. When a
//! running task reaches its deadline it gets a new one and yields the CPU if another task
//! waits (RUN_TO_PARITY: it runs its whole slice). A task that sleeps keeps its lag, clamped
//! to the larger of two slices and a tick, and wakes at `V - lag` (PLACE_LAG, with the
//! lag scaled by `(W + w) / W` so that its own arrival does not shrink it). New tasks start
//! at V with half a slice to their deadline (PLACE_DEADLINE_INITIAL). A woken task preempts
//! if it is eligible and its deadline is earlier than the running task's.

use crate::{Where, cfs::weight_of};
use runqueue_sched_api::{Carry, Enqueue, Fields, Kind, MAX_TASKS, SchedSpec, Scheduler, Settings, Task, Tid, Tunable};

const NICE_0_LOAD: u64 = 1024;
/// A tick, for the lag clamp (TICK_NSEC at the default `tick_us`).
const TICK_NS: u64 = 1_000_000;

pub const SPEC: SchedSpec<Eevdf> = SchedSpec {
    name: "eevdf",
    help: "Linux EEVDF (6.6): among tasks owed CPU time (lag >= 0), run the earliest virtual deadline",
    tunables: &[Tunable {
        name: "eevdf.base_slice_ns",
        kind: Kind::Int { min: 100_000, max: 1_000_000_000 },
        default: "750000",
        unit: "ns",
        help: "sysctl_sched_base_slice: the request size r, a task's virtual deadline is v + r/w",
    }],
    build: |s: &dyn Settings| Ok(Eevdf { slice: s.int("eevdf.base_slice_ns") as u64, entity: [Entity::NONE; MAX_TASKS], seq: 0 }),
};

#[derive(Clone, Copy)]
struct Entity {
    vruntime: u64,
    deadline: u64,
    weight: u64,
    /// Lag `V - v` kept across a sleep (in virtual ns).
    vlag: i64,
    place: Where,
    seq: u64,
}

impl Entity {
    const NONE: Entity = Entity { vruntime: 0, deadline: 0, weight: NICE_0_LOAD, vlag: 0, place: Where::Off, seq: 0 };
}

pub struct Eevdf {
    slice: u64,
    entity: [Entity; MAX_TASKS],
    seq: u64,
}

impl Eevdf {
    fn virt(delta: u64, weight: u64) -> u64 {
        delta * NICE_0_LOAD / weight
    }

    fn runnable(&self) -> impl Iterator<Item = &Entity> {
        self.entity.iter().filter(|e| e.place != Where::Off)
    }

    /// `avg_vruntime`: V and the total weight W of the runnable tasks (`None` when none).
    fn average(&self) -> Option<(u64, u64)> {
        let total: u64 = self.runnable().map(|e| e.weight).sum();
        let sum: u128 = self.runnable().map(|e| e.weight as u128 * e.vruntime as u128).sum();
        (total > 0).then(|| ((sum / total as u128) as u64, total))
    }

    /// `entity_eligible`: lag >= 0, i.e. `sum(w (v_j - v)) >= 0`, without dividing.
    fn eligible(&self, tid: Tid) -> bool {
        let v = self.entity[tid].vruntime as i128;
        self.runnable().map(|e| e.weight as i128 * (e.vruntime as i128 - v)).sum::<i128>() >= 0
    }

    /// `pick_eevdf`: the eligible queued task with the earliest deadline that `ok` accepts;
    /// if none is eligible (only possible among the tasks `ok` lets through), the one with
    /// the smallest vruntime.
    fn best(&self, ok: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let queued = || (1..MAX_TASKS).filter(|&t| self.entity[t].place == Where::Queued && ok(t));
        let key = |t: &Tid| (self.entity[*t].deadline, self.entity[*t].seq);
        queued().filter(|&t| self.eligible(t)).min_by_key(key).or_else(|| queued().min_by_key(|t| (self.entity[*t].vruntime, self.entity[*t].seq)))
    }

    fn vslice(&self, tid: Tid) -> u64 {
        Self::virt(self.slice, self.entity[tid].weight)
    }

    /// `place_entity` with PLACE_LAG and PLACE_DEADLINE_INITIAL; `tid` is not yet runnable.
    fn place(&mut self, tid: Tid, initial: bool) {
        let weight = self.entity[tid].weight;
        let (v, lag) = match self.average() {
            // Joining changes V; scale the lag so that after joining it is what it was.
            Some((avg, total)) if !initial => (avg, self.entity[tid].vlag * (total + weight) as i64 / total as i64),
            Some((avg, _)) => (avg, 0),
            None => (self.entity[tid].vruntime, 0),
        };
        let vslice = if initial { self.vslice(tid) / 2 } else { self.vslice(tid) };
        let e = &mut self.entity[tid];
        e.vruntime = (v as i64 - lag).max(0) as u64;
        e.deadline = e.vruntime + vslice;
    }

    /// Records the lag of a task leaving the run queue (`update_entity_lag`), clamped.
    fn keep_lag(&mut self, tid: Tid) {
        let limit = Self::virt((2 * self.slice).max(TICK_NS), self.entity[tid].weight) as i64;
        let lag = self.average().map_or(0, |(avg, _)| avg as i64 - self.entity[tid].vruntime as i64);
        self.entity[tid].vlag = lag.clamp(-limit, limit);
    }
}

impl Scheduler for Eevdf {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        let tid = task.tid;
        match why {
            Enqueue::New => {
                self.entity[tid] = Entity { weight: weight_of(task.nice), ..Entity::NONE };
                self.place(tid, true);
            }
            Enqueue::Wakeup => self.place(tid, false),
            Enqueue::Preempted | Enqueue::Yielded => {}
        }
        self.seq += 1;
        let e = &mut self.entity[tid];
        e.place = Where::Queued;
        e.seq = self.seq;
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let tid = self.best(allowed)?;
        self.entity[tid].place = Where::Running;
        Some(tid)
    }

    /// `update_curr` and `update_deadline`.
    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let vslice = self.vslice(task.tid);
        let e = &mut self.entity[task.tid];
        e.vruntime += Self::virt(ran_ns, e.weight);
        if e.vruntime >= e.deadline {
            e.deadline = e.vruntime + vslice;
        }
    }

    /// The running task keeps the CPU for its slice (RUN_TO_PARITY): it is preempted once it
    /// has had a new deadline set since it was picked and a better task waits.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let Some(best) = self.best(&|_| true) else {
            return false;
        };
        let (cur, other) = (&self.entity[current.tid], &self.entity[best]);
        current.stint_ns >= self.slice && (!self.eligible(current.tid) || other.deadline < cur.deadline)
    }

    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        self.eligible(woken.tid) && self.entity[woken.tid].deadline < self.entity[current.tid].deadline
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.keep_lag(task.tid);
        self.entity[task.tid].place = Where::Off;
    }

    fn exit(&mut self, task: &Task) {
        self.entity[task.tid].place = Where::Off;
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        let e = &self.entity[tid];
        let lag = self.average().map_or(0, |(avg, _)| avg as i64 - e.vruntime as i64);
        out.field("vr", e.vruntime).field("vd", e.deadline).field_int("lag", lag);
    }

    /// Linux 6.6 keeps a task's lag on every dequeue (`update_entity_lag`), a move included,
    /// and places it with that lag on the new queue: only the lag travels.
    fn detach(&mut self, task: &Task, queued: bool, _now: u64) -> Option<Carry> {
        if queued {
            self.keep_lag(task.tid);
            self.entity[task.tid].place = Where::Off;
        }
        let e = &self.entity[task.tid];
        Some(Carry([e.vlag, e.weight as i64, 0, 0, 0, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [vlag, weight, ..] = carry.0;
        self.entity[task.tid] = Entity { weight: weight as u64, vlag, ..Entity::NONE };
        if queued {
            self.place(task.tid, false);
            self.seq += 1;
            let e = &mut self.entity[task.tid];
            e.place = Where::Queued;
            e.seq = self.seq;
        }
    }
}
