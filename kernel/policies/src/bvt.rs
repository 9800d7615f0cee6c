//! BVT, borrowed virtual time (Duda and Cheriton, SOSP '99), one instance per run queue (each
//! hart's, or the one all harts share). Each task has an actual virtual time A (advancing by CPU
//! time / weight, like CFS's vruntime) and an effective virtual time E = A - W while it is
//! warped; the runnable task with the smallest E runs. The running task keeps the CPU until
//! another task's E is smaller by the context-switch allowance C (in the running task's virtual
//! time), so two tasks do not trade the CPU at every tick.
//!
//! Two sets of rules, `bvt.rules`:
//! - `paper` (the default): a task wakes at A = max(A, SVT) and warped; it preempts the running
//!   task if its E is lower (C is not applied to a task that just became runnable: C governs
//!   only how long a running task keeps the CPU, as Xen's `bvt_wake` schedules at once). The
//!   warp lasts until the task sleeps or has run warped for L of CPU time since it woke; a warp
//!   that ended in a sleep is back at the next wakeup, one cut short by L only once U has
//!   passed (U is the paper's penalty for running warped too long).
//! - `patch`: seed 002's Linux patch as our kernel first replayed it. Wakeup placement is
//!   `bvt.placement`, C is applied at wakeup too (CFS's wakeup granularity, not the paper),
//!   and the warp outlives sleeps until the task has run L of CPU time warped.
//!
//! The placements of `patch`: `epsilon` places a woken task just after the smallest A of the
//! runnable tasks (the patch's BVT_PLACEMENT: no sleeper credit, so a woken task preempts only
//! if it is warped), `fixed` the same distance after CFS's compensated point (min - latency/2,
//! the seed's fix), `cfs` is plain CFS placement. No rule moves a task backwards.

use crate::{Where, cfs::weight_of};
use runqueue_sched_api::{Carry, Choice, Enqueue, Fields, Int, Kind, MAX_ENTITIES, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

const NICE_0_LOAD: u64 = 1024;

/// What a wakeup placement rule sees, in ns of virtual time.
pub struct Wakeup {
    /// The task's actual virtual time when it went to sleep.
    pub avt: u64,
    /// The scheduler virtual time: the smallest A among runnable tasks (never decreasing).
    pub svt: u64,
    /// CFS's sleeper credit (`latency / 2`, GENTLE_FAIR_SLEEPERS).
    pub credit: u64,
    pub epsilon: u64,
}

/// A wakeup placement rule: the woken task's new actual virtual time.
pub type Placement = fn(&Wakeup) -> u64;

/// `bvt.rules`: the paper's, or seed 002's patch as first replayed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    Paper,
    Patch,
}

/// The paper's: no credit, no debt.
pub fn place_paper(w: &Wakeup) -> u64 {
    w.avt.max(w.svt)
}

pub fn place_epsilon(w: &Wakeup) -> u64 {
    w.avt.max(w.svt + w.epsilon)
}

pub fn place_fixed(w: &Wakeup) -> u64 {
    w.avt.max(w.svt.saturating_sub(w.credit) + w.epsilon)
}

pub fn place_cfs(w: &Wakeup) -> u64 {
    w.avt.max(w.svt.saturating_sub(w.credit))
}

/// Where a task stands with its warp, the trace's `wst=`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum WarpState {
    /// Not warped; warps at its next wakeup (if it has a warp).
    Free = 0,
    Warped = 1,
    /// Unwarped after running warped for L; warps again once U has passed.
    HitLimit = 2,
    /// Unwarped when it went to sleep (`paper`); warps again at its next wakeup.
    Slept = 3,
}

impl WarpState {
    fn from(code: i64) -> WarpState {
        match code {
            1 => WarpState::Warped,
            2 => WarpState::HitLimit,
            3 => WarpState::Slept,
            _ => WarpState::Free,
        }
    }
}

tunables! {
    const TUNABLES;
    RULES: Choice<Rules> = Setting::choice(Tunable {
        name: "bvt.rules",
        kind: Kind::Choice(&["paper", "patch"]),
        default: "paper",
        unit: "",
        help: "paper = Duda and Cheriton (wake at max(A, SVT), C only for the running task, warp until sleep or L); patch = the Linux BVT patch as seed 002 ran it (bvt.placement, C at wakeup too, L in CPU time)",
    }, &[Rules::Paper, Rules::Patch]);
    PLACEMENT: Choice<Placement> = Setting::choice(Tunable {
        name: "bvt.placement",
        kind: Kind::Choice(&["epsilon", "fixed", "cfs"]),
        default: "epsilon",
        unit: "",
        help: "wakeup placement under bvt.rules=patch: epsilon = just after the smallest A (the patch), fixed = just after CFS's compensated point (the seed's fix), cfs = CFS's sleeper credit",
    }, &[place_epsilon, place_fixed, place_cfs]);
    EPSILON: Int = Setting::int(Tunable {
        name: "bvt.epsilon_ns",
        kind: Kind::Int { min: 0, max: 100_000_000 },
        default: "100000",
        unit: "ns",
        help: "sched_bvt_place_epsilon: how far after its reference point a woken task is placed (patch)",
    });
    LATENCY: Int = Setting::int(Tunable {
        name: "bvt.latency_ns",
        kind: Kind::Int { min: 100_000, max: 1_000_000_000 },
        default: "6000000",
        unit: "ns",
        help: "sched_latency, whose half is the sleeper credit of the fixed and cfs placements (patch)",
    });
    CSA: Int = Setting::int(Tunable {
        name: "bvt.csa_us",
        kind: Kind::Int { min: 0, max: 1_000_000 },
        default: "1000",
        unit: "us",
        help: "context-switch allowance C: the running task keeps the CPU until another task's E is this much smaller",
    });
    WARP_LIMIT: Int = Setting::int(Tunable {
        name: "bvt.warp_limit_us",
        kind: Kind::Int { min: 0, max: 100_000_000 },
        default: "0",
        unit: "us",
        help: "warp time limit L: CPU time a task may run warped (paper: per wakeup; patch: until it hits L, across sleeps); 0 = no limit",
    });
    UNWARP: Int = Setting::int(Tunable {
        name: "bvt.unwarp_us",
        kind: Kind::Int { min: 0, max: 100_000_000 },
        default: "0",
        unit: "us",
        help: "unwarp time requirement U: after running warped for L, time a task must stay unwarped before it warps again",
    });
}

pub const SPEC: SchedSpec<Bvt> = SchedSpec {
    name: "bvt",
    help: "BVT (Duda and Cheriton): run the task with the least effective virtual time; warped tasks borrow W",
    tunables: TUNABLES,
    queue: QueueView { order: &["evt"], show: &["avt", "evt", "warp"], pick: Pick::First },
    build: |s: &Settings, _: &Run| {
        let paper = s.get(&RULES) == Rules::Paper;
        Ok(Bvt::new(s, paper, if paper { place_paper } else { s.get(&PLACEMENT) }))
    },
};

#[derive(Clone, Copy)]
struct Entity {
    avt: u64,
    weight: u64,
    /// The warp W the task may borrow, and where it stands with it.
    warp: u64,
    wst: WarpState,
    /// CPU time run warped since it last warped.
    warped_run: u64,
    /// When its last warp ended.
    unwarped_at: u64,
    place: Where,
    seq: u64,
}

impl Entity {
    const NONE: Entity =
        Entity { avt: 0, weight: NICE_0_LOAD, warp: 0, wst: WarpState::Free, warped_run: 0, unwarped_at: 0, place: Where::Off, seq: 0 };

    fn evt(&self) -> i64 {
        self.avt as i64 - if self.wst == WarpState::Warped { self.warp as i64 } else { 0 }
    }

    fn unwarp(&mut self, why: WarpState, now: u64) {
        self.wst = why;
        self.unwarped_at = now;
    }
}

pub struct Bvt {
    paper: bool,
    place: Placement,
    epsilon: u64,
    credit: u64,
    csa: u64,
    warp_limit: u64,
    unwarp: u64,
    entity: [Entity; MAX_ENTITIES],
    svt: u64,
    seq: u64,
}

impl Bvt {
    /// BVT with the tunables in `s`, the paper's rules or seed 002's, and wakeup placement `place`.
    pub fn new(s: &Settings, paper: bool, place: Placement) -> Bvt {
        Bvt {
            paper,
            place,
            epsilon: s.get(&EPSILON) as u64,
            credit: s.get(&LATENCY) as u64 / 2,
            csa: s.get(&CSA) as u64 * 1000,
            warp_limit: s.get(&WARP_LIMIT) as u64 * 1000,
            unwarp: s.get(&UNWARP) as u64 * 1000,
            entity: [Entity::NONE; MAX_ENTITIES],
            svt: 0,
            seq: 0,
        }
    }

    /// C in the virtual time of a task of `weight`.
    fn csa_for(&self, weight: u64) -> i64 {
        (self.csa * NICE_0_LOAD / weight) as i64
    }

    fn update_svt(&mut self) {
        let smallest = self.entity.iter().filter(|e| e.place != Where::Off).map(|e| e.avt).min();
        if let Some(v) = smallest {
            self.svt = self.svt.max(v);
        }
    }

    /// The queued task with the smallest (E, seq) that `ok` accepts.
    fn first(&self, ok: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        (1..MAX_ENTITIES).filter(|&t| self.entity[t].place == Where::Queued && ok(t)).min_by_key(|&t| (self.entity[t].evt(), self.entity[t].seq))
    }

    /// A task warps when it wakes, unless L cut its last warp short less than U ago.
    fn maybe_warp(&mut self, tid: Tid, now: u64) {
        let e = &mut self.entity[tid];
        let penalised = e.wst == WarpState::HitLimit && now.saturating_sub(e.unwarped_at) < self.unwarp;
        if e.warp > 0 && e.wst != WarpState::Warped && !penalised {
            e.wst = WarpState::Warped;
            e.warped_run = 0;
        }
    }

    /// Ends a warp that has run L of CPU time.
    fn check_limit(&mut self, tid: Tid, ran_ns: u64, now: u64) {
        let limit = self.warp_limit;
        let e = &mut self.entity[tid];
        if e.wst == WarpState::Warped {
            e.warped_run += ran_ns;
            if limit > 0 && e.warped_run >= limit {
                e.unwarp(WarpState::HitLimit, now);
            }
        }
    }
}

impl Scheduler for Bvt {
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        let tid = task.tid;
        match why {
            Enqueue::New => {
                self.entity[tid] = Entity { avt: self.svt, weight: weight_of(task.nice), warp: task.warp_ns, ..Entity::NONE };
                self.maybe_warp(tid, now);
            }
            Enqueue::Wakeup => {
                let e = &self.entity[tid];
                let wakeup = Wakeup { avt: e.avt, svt: self.svt, credit: self.credit, epsilon: self.epsilon };
                self.entity[tid].avt = (self.place)(&wakeup);
                self.maybe_warp(tid, now);
            }
            Enqueue::Preempted | Enqueue::Yielded => {}
        }
        self.seq += 1;
        let e = &mut self.entity[tid];
        e.place = Where::Queued;
        e.seq = self.seq;
        self.update_svt();
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let tid = self.first(allowed)?;
        self.entity[tid].place = Where::Running;
        Some(tid)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, now: u64) {
        let e = &mut self.entity[task.tid];
        e.avt += ran_ns * NICE_0_LOAD / e.weight;
        self.check_limit(task.tid, ran_ns, now);
        self.update_svt();
    }

    /// Switch only if a queued task's E is at least C below the running task's.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let cur = &self.entity[current.tid];
        self.first(&|_| true).is_some_and(|t| self.entity[t].evt() <= cur.evt() - self.csa_for(cur.weight))
    }

    /// The paper: a task that just became runnable preempts if its E is lower; the patch asks it
    /// to be C lower, as CFS's wakeup granularity does.
    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        let cur = &self.entity[current.tid];
        let margin = if self.paper { 1 } else { self.csa_for(cur.weight) };
        self.entity[woken.tid].evt() <= cur.evt() - margin
    }

    /// The paper's warp is for handling one event: it ends when the task sleeps.
    fn block(&mut self, task: &Task, now: u64) {
        let e = &mut self.entity[task.tid];
        e.place = Where::Off;
        if self.paper && e.wst == WarpState::Warped {
            e.unwarp(WarpState::Slept, now);
        }
        self.update_svt();
    }

    fn exit(&mut self, task: &Task) {
        self.entity[task.tid].place = Where::Off;
        self.update_svt();
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        self.milestone(tid, out);
    }

    fn hierarchical(&self) -> bool {
        true
    }

    /// Seed 002's patch warps a cgroup's entity, not the tasks inside it.
    fn warps_groups(&self) -> bool {
        !self.paper
    }

    /// As CFS before Linux 6.6 (seed 002's patch is on it): A stays, the weight changes.
    fn reweight(&mut self, id: Tid, weight: u64) {
        self.entity[id].weight = weight.max(1);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        let e = &self.entity[tid];
        let warp = if e.wst == WarpState::Warped { e.warp } else { 0 };
        out.field("avt", e.avt).field_int("evt", e.evt()).field("warp", warp).field("wst", e.wst as u64);
    }

    /// A move keeps A relative to the queue's SVT (as CFS does with min_vruntime) and the
    /// warp's state.
    fn detach(&mut self, task: &Task, _queued: bool, _now: u64) -> Option<Carry> {
        let e = self.entity[task.tid];
        self.entity[task.tid].place = Where::Off;
        self.update_svt();
        let rel = e.avt as i64 - self.svt as i64;
        Some(Carry([rel, e.wst as i64, e.warped_run as i64, e.unwarped_at as i64, 0, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [rel, wst, warped_run, unwarped_at, ..] = carry.0;
        self.seq += 1;
        self.entity[task.tid] = Entity {
            avt: (self.svt as i64 + rel).max(0) as u64,
            weight: weight_of(task.nice),
            warp: task.warp_ns,
            wst: WarpState::from(wst),
            warped_run: warped_run as u64,
            unwarped_at: unwarped_at as u64,
            place: if queued { Where::Queued } else { Where::Off },
            seq: self.seq,
        };
        self.update_svt();
    }
}
