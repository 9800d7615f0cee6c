//! CFS, the Linux fair scheduler as it was from 2.6.23 to 6.5 (before EEVDF), one instance
//! per run queue (each hart's, or the one all harts share). Follows `kernel/sched/fair.c` of
//! that era:
//! `update_curr` (vruntime += delta * NICE_0_LOAD / weight), `sched_slice` /
//! `__sched_period`, `place_entity` (START_DEBIT, FAIR_SLEEPERS, GENTLE_FAIR_SLEEPERS),
//! `check_preempt_tick`, `check_preempt_wakeup` / `wakeup_preempt_entity` (WAKEUP_PREEMPT),
//! the skip buddy set by `yield_task_fair`, and `sched_prio_to_weight` from `core.c`.
//! SCHED_BATCH and SCHED_IDLE tasks as `fair_policy` has them (not the smaller sleeper credit
//! 5.15-6.5 give a SCHED_IDLE task in `place_entity`).
//! Linux keeps the queue in a red-black tree; with at most 63 tasks a scan is as fast and
//! easier to read. Tunables are Linux's single-CPU defaults (6 ms, 0.75 ms, 1 ms), not
//! scaled by 1 + log2(ncpus) as Linux does, so a run on 4 harts keeps the same numbers.

use crate::Where;
use crate::fair_policy::{self, wakeup_verdict};
use runqueue_sched_api::{Carry, Enqueue, Features, Fields, Int, Kind, MAX_ENTITIES, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

const NICE_0_LOAD: u64 = 1024;

/// `sched_prio_to_weight`: nice -20 ..= 19; each step is about 10 % of CPU share.
pub const WEIGHTS: [u64; 40] = [
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277, 1024, 820, 655, 526, 423,
    335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
];

pub fn weight_of(nice: i32) -> u64 {
    WEIGHTS[(nice.clamp(-20, 19) + 20) as usize]
}

const FEATURES: &[&str] = &["START_DEBIT", "FAIR_SLEEPERS", "GENTLE_FAIR_SLEEPERS", "WAKEUP_PREEMPT"];
const START_DEBIT: u32 = 1 << 0;
const FAIR_SLEEPERS: u32 = 1 << 1;
const GENTLE_FAIR_SLEEPERS: u32 = 1 << 2;
const WAKEUP_PREEMPT: u32 = 1 << 3;

tunables! {
    const TUNABLES;
    LATENCY: Int = Setting::int(Tunable {
        name: "cfs.latency_ns",
        kind: Kind::Int { min: 100_000, max: 1_000_000_000 },
        default: "6000000",
        unit: "ns",
        help: "sched_latency: the period in which every runnable task should run once",
    });
    MIN_GRANULARITY: Int = Setting::int(Tunable {
        name: "cfs.min_granularity_ns",
        kind: Kind::Int { min: 10_000, max: 1_000_000_000 },
        default: "750000",
        unit: "ns",
        help: "sched_min_granularity: the shortest slice; the period stretches to nr_running times this",
    });
    WAKEUP_GRANULARITY: Int = Setting::int(Tunable {
        name: "cfs.wakeup_granularity_ns",
        kind: Kind::Int { min: 0, max: 1_000_000_000 },
        default: "1000000",
        unit: "ns",
        help: "sched_wakeup_granularity: how far ahead (in vruntime) a woken task must be to preempt",
    });
    FEATURES_ON: Features = Setting::features(Tunable {
        name: "cfs.features",
        kind: Kind::Features(FEATURES),
        default: "START_DEBIT,FAIR_SLEEPERS,GENTLE_FAIR_SLEEPERS,WAKEUP_PREEMPT",
        unit: "",
        help: "sched_features: NAME turns one on, NO_NAME off",
    });
}

pub const SPEC: SchedSpec<Cfs> = SchedSpec {
    name: "cfs",
    help: "Linux CFS (2.6.23-6.5): run the task with the least weighted virtual runtime",
    tunables: TUNABLES,
    queue: QueueView { order: &["vr"], show: &["vr"], pick: Pick::SkipYielder },
    build: |s: &Settings, _: &Run| {
        Ok(Cfs {
            latency: s.get(&LATENCY) as u64,
            min_gran: s.get(&MIN_GRANULARITY) as u64,
            wakeup_gran: s.get(&WAKEUP_GRANULARITY) as u64,
            features: s.get(&FEATURES_ON),
            entity: [Entity::NONE; MAX_ENTITIES],
            min_vruntime: 0,
            seq: 0,
            skip: None,
        })
    },
};

/// `struct sched_entity`, the part this kernel needs.
#[derive(Clone, Copy)]
struct Entity {
    vruntime: u64,
    weight: u64,
    place: Where,
    /// Enqueue order: equal vruntimes run first come, first served.
    seq: u64,
}

impl Entity {
    const NONE: Entity = Entity { vruntime: 0, weight: NICE_0_LOAD, place: Where::Off, seq: 0 };
}

pub struct Cfs {
    latency: u64,
    min_gran: u64,
    wakeup_gran: u64,
    features: u32,
    entity: [Entity; MAX_ENTITIES],
    min_vruntime: u64,
    seq: u64,
    /// The task that just yielded: passed over once if another is close enough.
    skip: Option<Tid>,
}

impl Cfs {
    fn has(&self, feature: u32) -> bool {
        self.features & feature != 0
    }

    /// Real time to virtual time for a task of `weight` (`calc_delta_fair`).
    fn to_virtual(delta: u64, weight: u64) -> u64 {
        delta * NICE_0_LOAD / weight
    }

    /// Runnable tasks (queued or running) and their total weight, counting `also` if it is
    /// about to join them.
    fn load(&self, also: Tid) -> (u64, u64) {
        let mut nr = 0;
        let mut total = 0;
        for (tid, e) in self.entity.iter().enumerate() {
            if e.place != Where::Off || tid == also {
                nr += 1;
                total += e.weight;
            }
        }
        (nr, total)
    }

    /// `sched_slice`: this task's share of the period, in real time.
    fn slice(&self, tid: Tid) -> u64 {
        let (nr, total) = self.load(tid);
        let period = if nr > self.latency / self.min_gran.max(1) { nr * self.min_gran } else { self.latency };
        period * self.entity[tid].weight / total.max(1)
    }

    /// The queued task with the smallest (vruntime, seq) that `ok` accepts, skipping `skip`.
    fn leftmost(&self, ok: &dyn Fn(Tid) -> bool, skip: Option<Tid>) -> Option<Tid> {
        (1..MAX_ENTITIES)
            .filter(|&t| self.entity[t].place == Where::Queued && Some(t) != skip && ok(t))
            .min_by_key(|&t| (self.entity[t].vruntime, self.entity[t].seq))
    }

    /// `wakeup_gran` in the virtual time of the task with `weight`.
    fn wakeup_gran_for(&self, weight: u64) -> u64 {
        Self::to_virtual(self.wakeup_gran, weight)
    }

    /// `update_min_vruntime`: follows the smallest vruntime of any runnable task, never back.
    fn update_min_vruntime(&mut self) {
        let smallest = self.entity.iter().filter(|e| e.place != Where::Off).map(|e| e.vruntime).min();
        if let Some(v) = smallest {
            self.min_vruntime = self.min_vruntime.max(v);
        }
    }

    /// `place_entity`: where a new or woken task starts in virtual time.
    fn place(&mut self, tid: Tid, initial: bool) {
        let mut v = self.min_vruntime;
        if initial && self.has(START_DEBIT) {
            v += Self::to_virtual(self.slice(tid), self.entity[tid].weight);
        }
        if !initial && self.has(FAIR_SLEEPERS) {
            let thresh = if self.has(GENTLE_FAIR_SLEEPERS) { self.latency / 2 } else { self.latency };
            v = v.saturating_sub(thresh);
        }
        let e = &mut self.entity[tid];
        e.vruntime = if initial { v } else { e.vruntime.max(v) };
    }
}

impl Scheduler for Cfs {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        let tid = task.tid;
        match why {
            Enqueue::New => {
                self.entity[tid].weight = fair_policy::weight(task.nice, task.policy);
                self.place(tid, true);
            }
            Enqueue::Wakeup => self.place(tid, false),
            Enqueue::Yielded => self.skip = Some(tid),
            Enqueue::Preempted => {}
        }
        self.seq += 1;
        let e = &mut self.entity[tid];
        e.place = Where::Queued;
        e.seq = self.seq;
        self.update_min_vruntime();
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let left = self.leftmost(allowed, None)?;
        let mut pick = left;
        if self.skip == Some(left)
            && let Some(second) = self.leftmost(allowed, Some(left))
        {
            let vdiff = self.entity[second].vruntime as i64 - self.entity[left].vruntime as i64;
            if vdiff <= self.wakeup_gran_for(self.entity[left].weight) as i64 {
                pick = second;
            }
        }
        self.skip = None;
        self.entity[pick].place = Where::Running;
        Some(pick)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let e = &mut self.entity[task.tid];
        e.vruntime += Self::to_virtual(ran_ns, e.weight);
        self.update_min_vruntime();
    }

    /// `check_preempt_tick`.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let Some(left) = self.leftmost(&|_| true, None) else {
            return false;
        };
        let ideal = self.slice(current.tid);
        if current.stint_ns > ideal {
            return true;
        }
        if current.stint_ns < self.min_gran {
            return false;
        }
        let delta = self.entity[current.tid].vruntime as i64 - self.entity[left].vruntime as i64;
        delta > ideal as i64
    }

    /// `check_preempt_wakeup`: the policies' rules, then `wakeup_preempt_entity(curr, woken) == 1`.
    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        if let Some(verdict) = wakeup_verdict(current, woken) {
            return verdict;
        }
        if !self.has(WAKEUP_PREEMPT) {
            return false;
        }
        let (c, w) = (&self.entity[current.tid], &self.entity[woken.tid]);
        c.vruntime as i64 - w.vruntime as i64 > self.wakeup_gran_for(w.weight) as i64
    }

    fn fair_policies(&self) -> bool {
        true
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.entity[task.tid].place = Where::Off;
        self.update_min_vruntime();
    }

    fn exit(&mut self, task: &Task) {
        self.entity[task.tid].place = Where::Off;
        self.update_min_vruntime();
    }

    fn hierarchical(&self) -> bool {
        true
    }

    /// `reweight_entity` before Linux 6.6: the vruntime stays, only what the weight makes of
    /// the next charge changes.
    fn reweight(&mut self, id: Tid, weight: u64) {
        self.entity[id].weight = weight.max(1);
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        out.field("vr", self.entity[tid].vruntime).field("min", self.min_vruntime);
    }

    /// `migrate_task_rq_fair`: the vruntime goes relative to this queue's min_vruntime...
    fn detach(&mut self, task: &Task, _queued: bool, _now: u64) -> Option<Carry> {
        let e = &mut self.entity[task.tid];
        e.place = Where::Off;
        let carry = Carry([e.vruntime as i64 - self.min_vruntime as i64, e.weight as i64, 0, 0, 0, 0]);
        if self.skip == Some(task.tid) {
            self.skip = None;
        }
        self.update_min_vruntime();
        Some(carry)
    }

    /// ...and back to absolute against the new queue's.
    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [rel, weight, ..] = carry.0;
        self.seq += 1;
        let place = if queued { Where::Queued } else { Where::Off };
        let vruntime = (self.min_vruntime as i64 + rel).max(0) as u64;
        self.entity[task.tid] = Entity { vruntime, weight: weight as u64, place, seq: self.seq };
        self.update_min_vruntime();
    }
}
