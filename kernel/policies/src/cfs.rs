//! CFS, the Linux fair scheduler as it was from 2.6.23 to 6.5 (before EEVDF), one instance
//! per run queue (each hart's, or the one all harts share). Follows `kernel/sched/fair.c` of
//! that era:
//! `update_curr` (vruntime += delta * NICE_0_LOAD / weight), `sched_slice` /
//! `__sched_period`, `place_entity` (START_DEBIT, FAIR_SLEEPERS, GENTLE_FAIR_SLEEPERS),
//! `check_preempt_tick`, `check_preempt_wakeup` / `wakeup_preempt_entity` (WAKEUP_PREEMPT),
//! the buddies `pick_next_entity` prefers (the next buddy, a task a wakeup preempted for; the
//! last buddy, the task it preempted, LAST_BUDDY; NEXT_BUDDY, every woken task; the skip
//! buddy set by `yield_task_fair`, passed over until it is picked), and
//! `sched_prio_to_weight` from `core.c`. `sched_slice` is 5.13-6.5's: no slice is shorter than
//! the minimum granularity (BASE_SLICE; NO_BASE_SLICE for 2.6.32-5.12's). Its period counts
//! the tasks of the slice's own queue, which for a task in a group is the group's queue where
//! 5.13-6.5 count the hart's (ALT_PERIOD), and a group's task gets its part of the group's
//! slice here where Linux also scales it by each ancestor's share (`for_each_sched_entity`).
//! SCHED_BATCH and SCHED_IDLE tasks as `fair_policy` has them (not the smaller sleeper credit
//! 5.15-6.5 give a SCHED_IDLE task in `place_entity`).
//! Linux keeps the queue in a red-black tree; with at most 63 tasks a scan is as fast and
//! easier to read. The tunables' defaults are Linux's single-CPU values (6 ms, 0.75 ms, 1 ms)
//! scaled by 1 + log2(harts) as Linux scales them at boot (`fair_policy::scaled`); a value
//! given on the command line is taken as it is, as a write to debugfs is.

use crate::Where;
use crate::fair_policy::{self, scaled, wakeup_verdict};
use core::cell::Cell;
use runqueue_sched_api::{Carry, Enqueue, FairPolicy, Features, Fields, Int, Kind, MAX_ENTITIES, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

const NICE_0_LOAD: u64 = 1024;
/// `sysctl_sched_idle_min_granularity` (5.15-6.5): not scaled with the CPU count.
const IDLE_MIN_GRANULARITY: u64 = 750_000;

/// `sched_prio_to_weight`: nice -20 ..= 19; each step is about 10 % of CPU share.
pub const WEIGHTS: [u64; 40] = [
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277, 1024, 820, 655, 526, 423,
    335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
];

pub fn weight_of(nice: i32) -> u64 {
    WEIGHTS[(nice.clamp(-20, 19) + 20) as usize]
}

const FEATURES: &[&str] =
    &["START_DEBIT", "FAIR_SLEEPERS", "GENTLE_FAIR_SLEEPERS", "WAKEUP_PREEMPT", "NEXT_BUDDY", "LAST_BUDDY", "BASE_SLICE"];
const START_DEBIT: u32 = 1 << 0;
const FAIR_SLEEPERS: u32 = 1 << 1;
const GENTLE_FAIR_SLEEPERS: u32 = 1 << 2;
const WAKEUP_PREEMPT: u32 = 1 << 3;
const NEXT_BUDDY: u32 = 1 << 4;
const LAST_BUDDY: u32 = 1 << 5;
const BASE_SLICE: u32 = 1 << 6;

tunables! {
    const TUNABLES;
    LATENCY: Int = Setting::int(Tunable {
        name: "cfs.latency_ns",
        kind: Kind::Int { min: 100_000, max: 1_000_000_000 },
        default: "6000000",
        unit: "ns",
        help: "sched_latency: the period in which every runnable task should run once (default 6 ms times 1 + log2(harts), as Linux scales it)",
    });
    MIN_GRANULARITY: Int = Setting::int(Tunable {
        name: "cfs.min_granularity_ns",
        kind: Kind::Int { min: 10_000, max: 1_000_000_000 },
        default: "750000",
        unit: "ns",
        help: "sched_min_granularity: the shortest slice; the period stretches to nr_running times this (default 0.75 ms times 1 + log2(harts))",
    });
    WAKEUP_GRANULARITY: Int = Setting::int(Tunable {
        name: "cfs.wakeup_granularity_ns",
        kind: Kind::Int { min: 0, max: 1_000_000_000 },
        default: "1000000",
        unit: "ns",
        help: "sched_wakeup_granularity: how far ahead (in vruntime) a woken task must be to preempt (default 1 ms times 1 + log2(harts))",
    });
    FEATURES_ON: Features = Setting::features(Tunable {
        name: "cfs.features",
        kind: Kind::Features(FEATURES),
        default: "START_DEBIT,FAIR_SLEEPERS,GENTLE_FAIR_SLEEPERS,WAKEUP_PREEMPT,LAST_BUDDY,BASE_SLICE",
        unit: "",
        help: "sched_features: NAME turns one on, NO_NAME off",
    });
}

pub const SPEC: SchedSpec<Cfs> = SchedSpec {
    name: "cfs",
    help: "Linux CFS (2.6.23-6.5): run the task with the least weighted virtual runtime",
    tunables: TUNABLES,
    queue: QueueView { order: &["vr"], show: &["vr"], pick: Pick::SkipYielder },
    build: |s: &Settings, run: &Run| {
        let (latency, min_gran) = (scaled(s, &LATENCY, run), scaled(s, &MIN_GRANULARITY, run).max(1));
        Ok(Cfs {
            latency,
            min_gran,
            wakeup_gran: scaled(s, &WAKEUP_GRANULARITY, run),
            // `sched_update_scaling`: DIV_ROUND_UP (8 at the defaults, whatever the scaling).
            nr_latency: latency.div_ceil(min_gran),
            features: s.get(&FEATURES_ON),
            entity: [Entity::NONE; MAX_ENTITIES],
            min_vruntime: 0,
            seq: 0,
            buddies: Buddies::NONE,
        })
    },
};

/// `struct sched_entity`, the part this kernel needs.
#[derive(Clone, Copy)]
struct Entity {
    vruntime: u64,
    weight: u64,
    /// A SCHED_IDLE task.
    idle: bool,
    place: Where,
    /// Enqueue order: equal vruntimes run first come, first served.
    seq: u64,
}

impl Entity {
    const NONE: Entity = Entity { vruntime: 0, weight: NICE_0_LOAD, idle: false, place: Where::Off, seq: 0 };
}

/// `cfs_rq->next`, `->last` and `->skip`. Cells: a wakeup that preempts sets the next and last
/// buddies while the core asks `wakeup_preempts`, through a shared borrow.
struct Buddies {
    /// A task a wakeup preempted for (or, with NEXT_BUDDY, any woken task): picked if not too
    /// far right of the leftmost.
    next: Cell<Option<Tid>>,
    /// The task that wakeup preempted (LAST_BUDDY): given the CPU back if not too unfair.
    last: Cell<Option<Tid>>,
    /// The task that yielded: passed over while another is close enough, until it is picked.
    skip: Option<Tid>,
}

impl Buddies {
    const NONE: Buddies = Buddies { next: Cell::new(None), last: Cell::new(None), skip: None };

    /// `clear_buddies`: `tid` is no buddy any more (picked, gone, or out of its slice).
    fn clear(&mut self, tid: Tid) {
        for cell in [&self.next, &self.last] {
            if cell.get() == Some(tid) {
                cell.set(None);
            }
        }
        if self.skip == Some(tid) {
            self.skip = None;
        }
    }
}

pub struct Cfs {
    latency: u64,
    min_gran: u64,
    wakeup_gran: u64,
    /// `sched_nr_latency`: above this many tasks the period stretches.
    nr_latency: u64,
    features: u32,
    entity: [Entity; MAX_ENTITIES],
    min_vruntime: u64,
    seq: u64,
    buddies: Buddies,
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

    /// `sched_slice`: this task's share of the period, in real time (`__sched_period`, then
    /// its weight's part of the queue's; with BASE_SLICE never below the minimum granularity,
    /// which for a SCHED_IDLE task beside others is `sysctl_sched_idle_min_granularity`).
    fn slice(&self, tid: Tid) -> u64 {
        let (nr, total) = self.load(tid);
        let period = if nr > self.nr_latency { nr * self.min_gran } else { self.latency };
        let slice = period * self.entity[tid].weight / total.max(1);
        let all_idle = self.entity.iter().all(|e| e.place == Where::Off || e.idle);
        let min = if self.entity[tid].idle && !all_idle { IDLE_MIN_GRANULARITY } else { self.min_gran };
        if self.has(BASE_SLICE) { slice.max(min) } else { slice }
    }

    /// The queued task with the smallest (vruntime, seq) that `ok` accepts, skipping `skip`.
    fn leftmost(&self, ok: &dyn Fn(Tid) -> bool, skip: Option<Tid>) -> Option<Tid> {
        (1..MAX_ENTITIES)
            .filter(|&t| self.entity[t].place == Where::Queued && Some(t) != skip && ok(t))
            .min_by_key(|&t| (self.entity[t].vruntime, self.entity[t].seq))
    }

    /// `wakeup_preempt_entity(curr, se)`: 1 when `curr` is more than the wakeup granularity
    /// (in `se`'s virtual time) right of `se`, -1 when it is not right of it at all, else 0.
    fn preempt_entity(&self, curr: Tid, se: Tid) -> i32 {
        let vdiff = self.entity[curr].vruntime as i64 - self.entity[se].vruntime as i64;
        match vdiff {
            ..=0 => -1,
            d if d > Self::to_virtual(self.wakeup_gran, self.entity[se].weight) as i64 => 1,
            _ => 0,
        }
    }

    /// A buddy `pick_next_entity` may take: queued, allowed here, and not more than the
    /// wakeup granularity right of the leftmost (`wakeup_preempt_entity(buddy, left) < 1`).
    fn usable(&self, buddy: Option<Tid>, left: Tid, ok: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        buddy.filter(|&b| self.entity[b].place == Where::Queued && ok(b) && self.preempt_entity(b, left) < 1)
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
                self.entity[tid].idle = task.policy == FairPolicy::Idle;
                self.place(tid, true);
            }
            Enqueue::Wakeup => self.place(tid, false),
            // `yield_task_fair`: its own buddies go, and it is the skip buddy.
            Enqueue::Yielded => {
                self.buddies.clear(tid);
                self.buddies.skip = Some(tid);
            }
            Enqueue::Preempted => {}
        }
        self.seq += 1;
        let e = &mut self.entity[tid];
        e.place = Where::Queued;
        e.seq = self.seq;
        self.update_min_vruntime();
    }

    /// `pick_next_entity`: the leftmost, or the one after it if the leftmost is the skip
    /// buddy and the next is close enough; then the next buddy, else the last buddy, if either
    /// is close enough to the leftmost. The pick is no buddy any more (`set_next_entity`).
    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let left = self.leftmost(allowed, None)?;
        let mut pick = left;
        if self.buddies.skip == Some(left)
            && let Some(second) = self.leftmost(allowed, Some(left))
            && self.preempt_entity(second, left) < 1
        {
            pick = second;
        }
        let b = &self.buddies;
        if let Some(buddy) = self.usable(b.next.get(), left, allowed).or_else(|| self.usable(b.last.get(), left, allowed)) {
            pick = buddy;
        }
        self.buddies.clear(pick);
        self.entity[pick].place = Where::Running;
        Some(pick)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let e = &mut self.entity[task.tid];
        e.vruntime += Self::to_virtual(ran_ns, e.weight);
        self.update_min_vruntime();
    }

    /// `check_preempt_tick`: a task past its slice goes, and is no buddy any more.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let Some(left) = self.leftmost(&|_| true, None) else {
            return false;
        };
        let ideal = self.slice(current.tid);
        if current.stint_ns > ideal {
            self.buddies.clear(current.tid);
            return true;
        }
        if current.stint_ns < self.min_gran {
            return false;
        }
        let delta = self.entity[current.tid].vruntime as i64 - self.entity[left].vruntime as i64;
        delta > ideal as i64
    }

    /// `check_preempt_wakeup`: the policies' rules, then `wakeup_preempt_entity(curr, woken)
    /// == 1`. With more than `sched_nr_latency` tasks queued NEXT_BUDDY makes the woken task the
    /// next buddy whatever the verdict; a preempting one always is, and LAST_BUDDY makes the
    /// preempted task (not a group's entity) the last buddy.
    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        if let Some(verdict) = wakeup_verdict(current, woken) {
            return verdict;
        }
        let scale = self.load(0).0 >= self.nr_latency;
        if self.has(NEXT_BUDDY) && scale {
            self.buddies.next.set(Some(woken.tid));
        }
        if !self.has(WAKEUP_PREEMPT) || self.preempt_entity(current.tid, woken.tid) != 1 {
            return false;
        }
        self.buddies.next.set(Some(woken.tid));
        if self.has(LAST_BUDDY) && scale && current.tid < MAX_TASKS && self.entity[current.tid].place != Where::Off {
            self.buddies.last.set(Some(current.tid));
        }
        true
    }

    fn fair_policies(&self) -> bool {
        true
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.entity[task.tid].place = Where::Off;
        self.buddies.clear(task.tid);
        self.update_min_vruntime();
    }

    fn exit(&mut self, task: &Task) {
        self.entity[task.tid].place = Where::Off;
        self.buddies.clear(task.tid);
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
        let carry = Carry([e.vruntime as i64 - self.min_vruntime as i64, e.weight as i64, e.idle as i64, 0, 0, 0]);
        self.buddies.clear(task.tid);
        self.update_min_vruntime();
        Some(carry)
    }

    /// ...and back to absolute against the new queue's.
    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [rel, weight, idle, ..] = carry.0;
        self.seq += 1;
        let place = if queued { Where::Queued } else { Where::Off };
        let vruntime = (self.min_vruntime as i64 + rel).max(0) as u64;
        self.entity[task.tid] = Entity { vruntime, weight: weight as u64, idle: idle != 0, place, seq: self.seq };
        self.update_min_vruntime();
    }
}
