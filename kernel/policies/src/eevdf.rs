//! EEVDF as Linux has it (`kernel/sched/fair.c` and `features.h`, the series after commit
//! 147f3efaa241, and `Documentation/scheduler/sched-eevdf.rst`), one instance per run queue,
//! as of Linux 6.6 or 6.12 (`eevdf.version`), with 6.12's `sched_features` as switches.
//!
//! Each task has a vruntime v (CPU time / weight, like CFS), a request r (its slice, real
//! time) and a virtual deadline `vd = v + r/w`, set from the current vruntime whenever v
//! reaches the old deadline (`update_deadline`). The queue's average vruntime
//! `V = sum(w v) / sum(w)` over the runnable tasks (running ones included) defines the virtual
//! lag `V - v` (Linux's `vlag`; the lag of the paper is `w (V - v)`): a task is eligible when
//! it is not negative, and the eligible task with the earliest virtual deadline runs
//! (`pick_eevdf`). Features, as Linux spells them:
//! - PLACE_LAG: a task keeps its virtual lag across a sleep, clamped to the larger of two
//!   slices and a tick, and wakes at `V - lag`, the lag scaled by `(W + w) / W` so that its own
//!   arrival does not shrink it. Off: it wakes at V.
//! - PLACE_DEADLINE_INITIAL: a new task's first deadline is half a request away.
//! - RUN_TO_PARITY: a task keeps the CPU while it is eligible and on the deadline it had
//!   when picked (a wakeup does not preempt it; the tick does once it gets a new deadline).
//! - WAKEUP_PREEMPTION: a woken task preempts when it is what `pick_eevdf` would choose.
//! - 6.12 only: PREEMPT_SHORT (a woken task with a shorter request than the running one,
//!   eligible, and either earlier or facing an ineligible runner, cancels its slice
//!   protection), DELAY_DEQUEUE (a task going to sleep while ineligible stays queued, still
//!   in V, until it is picked; then it leaves), DELAY_ZERO (a delayed task leaves, or wakes,
//!   with its lag cut to 0 if positive), PLACE_REL_DEADLINE (a moved task keeps its deadline
//!   relative to its vruntime), and per-task requests (`sched_runtime`, clamped to
//!   0.1-100 ms); before 6.12 every task's request is the base slice.
//! `yield` pushes the deadline one request further (`yield_task_fair`). SCHED_BATCH and
//! SCHED_IDLE tasks as `fair_policy` has them.

use crate::Where;
use crate::fair_policy::{self, scaled_or, wakeup_verdict};
use core::cell::Cell;
use crate::cfs::WEIGHTS;
use crate::fair_policy::WEIGHT_IDLEPRIO;
use runqueue_sched_api::{Carry, Choice, Enqueue, Features, Fields, Int, Kind, MAX_ENTITIES, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

const NICE_0_LOAD: u64 = 1024;
/// A tick, for the lag clamp (TICK_NSEC at the default `tick_us`).
const TICK_NS: u64 = 1_000_000;
/// `__setparam_fair`'s clamp of `sched_runtime` (Linux 6.12).
const MIN_CUSTOM_SLICE: u64 = 100_000;
const MAX_CUSTOM_SLICE: u64 = 100_000_000;

const FEATURES: &[&str] =
    &["PLACE_LAG", "PLACE_DEADLINE_INITIAL", "PLACE_REL_DEADLINE", "RUN_TO_PARITY", "PREEMPT_SHORT", "DELAY_DEQUEUE", "DELAY_ZERO", "WAKEUP_PREEMPTION"];
const PLACE_LAG: u32 = 1 << 0;
const PLACE_DEADLINE_INITIAL: u32 = 1 << 1;
const PLACE_REL_DEADLINE: u32 = 1 << 2;
const RUN_TO_PARITY: u32 = 1 << 3;
const PREEMPT_SHORT: u32 = 1 << 4;
const DELAY_DEQUEUE: u32 = 1 << 5;
const DELAY_ZERO: u32 = 1 << 6;
const WAKEUP_PREEMPTION: u32 = 1 << 7;
/// The features Linux 6.6 has; the others arrived in 6.12.
const IN_6_6: u32 = PLACE_LAG | PLACE_DEADLINE_INITIAL | RUN_TO_PARITY | WAKEUP_PREEMPTION;

/// `eevdf.version`: the Linux release followed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    V6_6,
    V6_12,
}

tunables! {
    const TUNABLES;
    BASE_SLICE: Int = Setting::int(Tunable {
        name: "eevdf.base_slice_ns",
        kind: Kind::Int { min: 100_000, max: 1_000_000_000 },
        default: "700000",
        unit: "ns",
        help: "sysctl_sched_base_slice: the request r of a task that asked for none, its virtual deadline is v + r/w (default 0.70 ms, 6.6's 0.75 ms, times 1 + log2(harts), as Linux scales it)",
    });
    VERSION: Choice<Version> = Setting::choice(Tunable {
        name: "eevdf.version",
        kind: Kind::Choice(&["6.6", "6.12"]),
        default: "6.12",
        unit: "",
        help: "the Linux version to follow: 6.6 lacks PREEMPT_SHORT, DELAY_DEQUEUE, DELAY_ZERO, PLACE_REL_DEADLINE and per-task slices",
    }, &[Version::V6_6, Version::V6_12]);
    FEATURES_ON: Features = Setting::features(Tunable {
        name: "eevdf.features",
        kind: Kind::Features(FEATURES),
        default: "PLACE_LAG,PLACE_DEADLINE_INITIAL,PLACE_REL_DEADLINE,RUN_TO_PARITY,PREEMPT_SHORT,DELAY_DEQUEUE,DELAY_ZERO,WAKEUP_PREEMPTION",
        unit: "",
        help: "sched_features: NAME turns one on, NO_NAME off (a feature the version lacks stays off)",
    });
}

/// Whether the run follows Linux 6.12's EEVDF (`sched=eevdf eevdf.version=6.12`), whose
/// defaults elsewhere differ too (no RT throttling: `rt.starvation`).
pub fn follows_6_12(s: &Settings) -> bool {
    s.sched().is_some_and(|e| e.name == SPEC.name) && s.get(&VERSION) == Version::V6_12
}

pub const SPEC: SchedSpec<Eevdf> = SchedSpec {
    name: "eevdf",
    help: "Linux EEVDF (6.6 or 6.12): among tasks owed CPU time (lag >= 0), run the earliest virtual deadline",
    tunables: TUNABLES,
    queue: QueueView { order: &["vd"], show: &["vd", "lag", "vr"], pick: Pick::Eligible { weights: &WEIGHTS, idle_weight: WEIGHT_IDLEPRIO } },
    build: |s: &Settings, run: &Run| {
        let v6_12 = s.get(&VERSION) == Version::V6_12;
        let features = s.get(&FEATURES_ON) & if v6_12 { u32::MAX } else { IN_6_6 };
        // 6.8 shortened the base slice from 0.75 ms to 0.70 ms.
        let base_slice = scaled_or(s, &BASE_SLICE, if v6_12 { 700_000 } else { 750_000 }, run);
        Ok(Eevdf { base_slice, v6_12, features, entity: [Entity::NONE; MAX_ENTITIES], protected: Cell::new(0), seq: 0 })
    },
};

#[derive(Clone, Copy)]
struct Entity {
    vruntime: u64,
    /// Absolute, or relative to `vruntime` while it travels to another queue (`Carry`).
    deadline: u64,
    weight: u64,
    /// The request r, in real ns.
    slice: u64,
    /// Virtual lag `V - v` kept across a sleep or a move.
    vlag: i64,
    place: Where,
    /// DELAY_DEQUEUE: asleep, yet still queued (and in V) until picked.
    delayed: bool,
    /// It reached its deadline while running (`update_deadline` asked for a reschedule).
    resched: bool,
    seq: u64,
}

impl Entity {
    const NONE: Entity = Entity { vruntime: 0, deadline: 0, weight: NICE_0_LOAD, slice: 0, vlag: 0, place: Where::Off, delayed: false, resched: false, seq: 0 };
}

pub struct Eevdf {
    base_slice: u64,
    /// Following Linux 6.12 rather than 6.6: per-task requests (`sched_runtime`) are honoured.
    v6_12: bool,
    features: u32,
    entity: [Entity; MAX_ENTITIES],
    /// Bit t: entity t runs on the deadline it was picked with, its slice protected
    /// (RUN_TO_PARITY; Linux stashes the deadline in `vlag` at `set_next_entity`). A cell:
    /// PREEMPT_SHORT clears it while checking a wakeup, which the API hands a shared borrow.
    protected: Cell<u128>,
    seq: u64,
}

impl Eevdf {
    fn has(&self, feature: u32) -> bool {
        self.features & feature != 0
    }

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

    fn lag(&self, tid: Tid) -> i64 {
        self.average().map_or(0, |(avg, _)| avg as i64 - self.entity[tid].vruntime as i64)
    }

    /// `entity_eligible`: lag >= 0, i.e. `sum(w (v_j - v)) >= 0`, without dividing.
    fn eligible(&self, tid: Tid) -> bool {
        let v = self.entity[tid].vruntime as i128;
        self.runnable().map(|e| e.weight as i128 * (e.vruntime as i128 - v)).sum::<i128>() >= 0
    }

    fn is_protected(&self, tid: Tid) -> bool {
        self.protected.get() & (1 << tid) != 0
    }

    fn protect(&self, tid: Tid, on: bool) {
        let bits = self.protected.get();
        self.protected.set(if on { bits | 1 << tid } else { bits & !(1 << tid) });
    }

    fn vslice(&self, tid: Tid) -> u64 {
        Self::virt(self.entity[tid].slice, self.entity[tid].weight)
    }

    /// `pick_eevdf`: `curr` (running, if any) while RUN_TO_PARITY protects it; else the
    /// eligible task with the earliest deadline among `curr` and the queued ones `ok` accepts
    /// (a queued one wins a tie: `entity_before` is strict). If none is eligible (only
    /// possible among those `ok` lets through), the queued one with the smallest vruntime.
    fn pick_eevdf(&self, curr: Option<Tid>, ok: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let curr = curr.filter(|&c| self.eligible(c));
        if let Some(c) = curr
            && self.has(RUN_TO_PARITY)
            && self.is_protected(c)
        {
            return Some(c);
        }
        let queued = || (1..MAX_ENTITIES).filter(|&t| self.entity[t].place == Where::Queued && ok(t));
        let key = |t: &Tid| (self.entity[*t].deadline, self.entity[*t].seq);
        let best = queued().filter(|&t| self.eligible(t)).min_by_key(key);
        match (curr, best) {
            (Some(c), Some(b)) if self.entity[c].deadline < self.entity[b].deadline => Some(c),
            (Some(c), None) => Some(c),
            (_, Some(b)) => Some(b),
            (None, None) => queued().min_by_key(|t| (self.entity[*t].vruntime, self.entity[*t].seq)),
        }
    }

    /// Whether the running `tid` must be rescheduled (`update_curr`): it reached its deadline,
    /// or (PREEMPT_SHORT's `did_preempt_short`) it lost its protection and is no longer eligible.
    fn due(&self, tid: Tid) -> bool {
        self.entity[tid].resched || (self.has(PREEMPT_SHORT) && !self.is_protected(tid) && !self.eligible(tid))
    }

    fn others_runnable(&self, tid: Tid) -> bool {
        self.runnable().count() > usize::from(self.entity[tid].place != Where::Off)
    }

    /// `place_entity`; `tid` is not yet runnable. A deadline carried relative to the
    /// vruntime (PLACE_REL_DEADLINE, after a move) is kept as such.
    fn place(&mut self, tid: Tid, initial: bool, relative_deadline: bool) {
        let weight = self.entity[tid].weight;
        let (v, lag) = match self.average() {
            // Joining changes V; scale the lag so that after joining it is what it was.
            Some((avg, total)) if self.has(PLACE_LAG) => (avg, self.entity[tid].vlag * (total + weight) as i64 / total as i64),
            Some((avg, _)) => (avg, 0),
            None => (self.entity[tid].vruntime, 0),
        };
        let vslice = if initial && self.has(PLACE_DEADLINE_INITIAL) { self.vslice(tid) / 2 } else { self.vslice(tid) };
        let e = &mut self.entity[tid];
        e.vruntime = (v as i64 - lag).max(0) as u64;
        e.deadline = e.vruntime + if relative_deadline { e.deadline } else { vslice };
    }

    /// `update_entity_lag`: the lag of a task leaving the run queue, clamped.
    fn keep_lag(&mut self, tid: Tid) {
        let limit = Self::virt((2 * self.entity[tid].slice).max(TICK_NS), self.entity[tid].weight) as i64;
        self.entity[tid].vlag = self.lag(tid).clamp(-limit, limit);
    }

    /// `dequeue_entity`: out of the queue with its lag kept (DELAY_ZERO: no credit kept by a
    /// delayed task, which had its turn to use it).
    fn dequeue(&mut self, tid: Tid) {
        self.keep_lag(tid);
        let e = &mut self.entity[tid];
        if e.delayed && self.features & DELAY_ZERO != 0 {
            e.vlag = e.vlag.min(0);
        }
        e.delayed = false;
        e.place = Where::Off;
    }

    /// `requeue_delayed_entity`: a delayed task wakes where it is, unless DELAY_ZERO finds it
    /// owed time, which it forgoes: it is placed afresh at lag 0.
    fn requeue_delayed(&mut self, tid: Tid) {
        self.entity[tid].delayed = false;
        if self.has(DELAY_ZERO) && self.lag(tid) > 0 {
            self.entity[tid].place = Where::Off;
            self.entity[tid].vlag = 0;
            self.place(tid, false, false);
        }
    }

    fn queue(&mut self, tid: Tid) {
        self.seq += 1;
        let e = &mut self.entity[tid];
        e.place = Where::Queued;
        e.seq = self.seq;
    }
}

impl Scheduler for Eevdf {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        let tid = task.tid;
        match why {
            Enqueue::New => {
                let slice = if self.v6_12 && task.slice_ns > 0 { task.slice_ns.clamp(MIN_CUSTOM_SLICE, MAX_CUSTOM_SLICE) } else { self.base_slice };
                self.entity[tid] = Entity { weight: fair_policy::weight(task.nice, task.policy), slice, ..Entity::NONE };
                self.place(tid, true, false);
            }
            Enqueue::Wakeup if self.entity[tid].delayed => self.requeue_delayed(tid),
            Enqueue::Wakeup => self.place(tid, false, false),
            // `yield_task_fair`: one request later, unless it is alone.
            Enqueue::Yielded if self.others_runnable(tid) => {
                self.entity[tid].deadline += self.vslice(tid);
                self.protect(tid, false);
            }
            Enqueue::Yielded | Enqueue::Preempted => {}
        }
        self.queue(tid);
    }

    /// `pick_next_entity`: a delayed task that comes up leaves the queue instead of running.
    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        loop {
            let tid = self.pick_eevdf(None, allowed)?;
            if self.entity[tid].delayed {
                self.dequeue(tid);
                continue;
            }
            let e = &mut self.entity[tid];
            e.place = Where::Running;
            e.resched = false;
            self.protect(tid, true);
            return Some(tid);
        }
    }

    /// `update_curr` and `update_deadline`: `vd = v + r/w` once v reaches the deadline.
    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let tid = task.tid;
        let vslice = self.vslice(tid);
        let e = &mut self.entity[tid];
        e.vruntime += Self::virt(ran_ns, e.weight);
        if e.vruntime >= e.deadline {
            e.deadline = e.vruntime + vslice;
            e.resched = true;
            self.protect(tid, false);
        }
    }

    /// The tick reschedules only when `update_curr` asks; the running task goes if
    /// `pick_eevdf` then prefers another.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let tid = current.tid;
        let due = self.due(tid);
        self.entity[tid].resched = false;
        due && self.others_runnable(tid) && self.pick_eevdf(Some(tid), &|_| true) != Some(tid)
    }

    /// `check_preempt_wakeup_fair`: the policies' rules, then the pick.
    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        let verdict = wakeup_verdict(current, woken);
        // 6.6 lets a waker preempt a SCHED_IDLE task before it looks at WAKEUP_PREEMPTION;
        // 6.12 looks first (since 6.11's "SCHED_IDLE entity ... strict hierarchy" rework).
        if !self.has(WAKEUP_PREEMPTION) {
            return !self.v6_12 && verdict == Some(true);
        }
        if let Some(verdict) = verdict {
            return verdict;
        }
        let (c, w) = (current.tid, woken.tid);
        let due = self.due(c);
        // `do_preempt_short`: a shorter request cancels the runner's slice protection.
        let (ec, ew) = (&self.entity[c], &self.entity[w]);
        if self.has(PREEMPT_SHORT) && ew.slice < ec.slice && self.eligible(w) && (ew.deadline < ec.deadline || !self.eligible(c)) {
            self.protect(c, false);
        }
        let pick = self.pick_eevdf(Some(c), &|_| true);
        pick == Some(w) || (due && pick != Some(c))
    }

    fn fair_policies(&self) -> bool {
        true
    }

    /// `dequeue_entity` for a sleep: with DELAY_DEQUEUE an ineligible task stays queued.
    fn block(&mut self, task: &Task, _now: u64) {
        let tid = task.tid;
        self.protect(tid, false);
        if self.has(DELAY_DEQUEUE) && !self.eligible(tid) {
            let e = &mut self.entity[tid];
            e.delayed = true;
            e.place = Where::Queued;
        } else {
            self.dequeue(tid);
        }
    }

    fn exit(&mut self, task: &Task) {
        self.protect(task.tid, false);
        self.entity[task.tid].place = Where::Off;
    }

    fn hierarchical(&self) -> bool {
        true
    }

    /// `reweight_entity`. 6.12 (`reweight_eevdf`, 6.7 onwards): a runnable entity keeps its
    /// weighted lag `w (V - v)` and the weighted distance to its deadline, so a group's entity
    /// whose weight follows its load neither gains nor loses by the change. 6.6: its vruntime
    /// stays and only the distance to its deadline is rescaled. Either way an entity out of
    /// the queue has its kept lag rescaled.
    fn reweight(&mut self, id: Tid, weight: u64) {
        let old = self.entity[id].weight;
        let scale = |d: i64| (d as i128 * old as i128 / weight.max(1) as i128) as i64;
        match self.average() {
            Some(_) if self.entity[id].place != Where::Off && !self.v6_12 => {
                let e = &mut self.entity[id];
                e.deadline = (e.vruntime as i64 + scale(e.deadline as i64 - e.vruntime as i64)).max(0) as u64;
            }
            Some((avg, _)) if self.entity[id].place != Where::Off => {
                let e = &mut self.entity[id];
                e.vruntime = (avg as i64 - scale(avg as i64 - e.vruntime as i64)).max(0) as u64;
                e.deadline = (avg as i64 + scale(e.deadline as i64 - avg as i64)).max(0) as u64;
            }
            _ => self.entity[id].vlag = scale(self.entity[id].vlag),
        }
        self.entity[id].weight = weight;
    }

    /// DELAY_DEQUEUE: asleep but still queued, so its wakeup finds it where it is
    /// (`ttwu_runnable`), on the same queue.
    fn delayed(&self, tid: Tid) -> bool {
        self.entity[tid].delayed
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        let e = &self.entity[tid];
        out.field("vr", e.vruntime).field("vd", e.deadline).field_int("lag", self.lag(tid)).field("el", self.eligible(tid) as u64);
        if e.slice != self.base_slice {
            out.field("slice", e.slice);
        }
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        out.field("delayed", self.entity[tid].delayed as u64);
    }

    /// Linux keeps a task's lag on every dequeue (`update_entity_lag`), a move included, and
    /// places it with that lag on the new queue; 6.12 (PLACE_REL_DEADLINE) also keeps its
    /// deadline relative to its vruntime. (A delayed task is never moved: it wakes in place.)
    fn detach(&mut self, task: &Task, queued: bool, _now: u64) -> Option<Carry> {
        let tid = task.tid;
        if queued {
            self.dequeue(tid);
        }
        let e = &self.entity[tid];
        let rel_deadline = if queued && self.has(PLACE_REL_DEADLINE) { e.deadline.saturating_sub(e.vruntime) as i64 } else { -1 };
        Some(Carry([e.vlag, e.weight as i64, e.slice as i64, rel_deadline, 0, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [vlag, weight, slice, rel_deadline, ..] = carry.0;
        let tid = task.tid;
        self.entity[tid] = Entity { weight: weight as u64, slice: slice as u64, vlag, deadline: rel_deadline.max(0) as u64, ..Entity::NONE };
        if queued {
            self.place(tid, false, rel_deadline >= 0);
            self.queue(tid);
        }
    }
}
