//! Several harts as Linux runs them (`rq=perhart`): where a new or waking fair task goes
//! (`select_task_rq_fair`), and load balancing between the harts' run queues (`load_balance`
//! in `kernel/sched/fair.c`): periodic, when a hart becomes idle (newidle), and active, which
//! stops a busy hart's task so that a task can be moved off it.
//!
//! A queue's load is the sum of the weights of its runnable fair tasks, the running one
//! included: Linux's load before per-entity load tracking (PELT, 3.8), with no decay. The
//! thresholds are Linux's for a domain of cores sharing a cache: `imbalance_pct` 117,
//! `cache_nice_tries` 1, and the sysctls `sched_migration_cost_ns` and `sched_nr_migrate`.
//! Harts in `isolcpus=` are outside the domain: nothing is placed on them or moved to or from
//! them, except tasks pinned there.
//!
//! Real-time and deadline tasks share one queue across harts (`sched::class`); `kick_for`
//! sends such a task's hart an IPI at once, the effect Linux's RT and deadline push and pull
//! aim at.

use super::Kernel;
use crate::sched::rt;
use runqueue_settings::{ArgError, Choice, Features, Int, Kind, Setting, Settings, Tunable, tunables};
use crate::hart::{self, MAX_HARTS};
use crate::task::{Class, FairPolicy, MAX_TASKS, State, Tid};
use crate::trace;
use runqueue_policies::fair_policy::weight;

/// A domain balances when its busiest queue's load exceeds the local one's by 17 %.
const IMBALANCE_PCT: u64 = 117;
/// Failed balancing passes after which a cache-hot task may be moved anyway.
const CACHE_NICE_TRIES: u32 = 1;
/// A CPU's full capacity (`SCHED_CAPACITY_SCALE`).
const CAPACITY: u64 = 1024;
/// A domain's balancing interval per CPU in it (`sd_init`: `min_interval = sd_weight` ms) and
/// the factor a busy CPU stretches it by (`busy_factor`).
const INTERVAL_PER_HART_NS: u64 = 1_000_000;
const BUSY_FACTOR: u64 = 16;

const HARTS: &[&str] = &["0", "1", "2", "3"];

tunables! {
    pub const TUNABLES;
    /// `true`: a queue per hart (`perhart`).
    RQ: Choice<bool> = Setting::choice(Tunable {
        name: "rq",
        kind: Kind::Choice(&["perhart", "global"]),
        default: "perhart",
        unit: "",
        help: "run queues: one per hart with load balancing, as Linux has (perhart), or one shared by all harts, as xv6 and ArceOS have (global)",
    }, &[true, false]);
    BALANCE_MS: Int = Setting::int(Tunable {
        name: "balance_ms",
        kind: Kind::Int { min: 0, max: 10_000 },
        default: "32",
        unit: "ms",
        help: "how often a busy hart balances load (default: Linux's, the domain's interval of 1 ms per CPU in it times busy_factor 16: 32 ms on two harts, 48 on three, 64 on four); an idle hart balances at every tick and when it becomes idle; 0 = never balance",
    });
    MIGRATION_COST: Int = Setting::int(Tunable {
        name: "sched_migration_cost_ns",
        kind: Kind::Int { min: 0, max: 1_000_000_000 },
        default: "500000",
        unit: "ns",
        help: "a task that ran this recently is cache-hot: balancing leaves it until passes have failed",
    });
    NR_MIGRATE: Int = Setting::int(Tunable {
        name: "sched_nr_migrate",
        kind: Kind::Int { min: 1, max: 64 },
        default: "32",
        unit: "tasks",
        help: "at most this many tasks move in one balancing pass",
    });
    ISOLCPUS: Features = Setting::features(Tunable {
        name: "isolcpus",
        kind: Kind::Features(HARTS),
        default: "",
        unit: "harts",
        help: "harts taken out of placement and balancing (e.g. 1,2): only tasks pinned there with affinity= run there",
    });
    NOHZ_FULL: Features = Setting::features(Tunable {
        name: "nohz_full",
        kind: Kind::Features(HARTS),
        default: "",
        unit: "harts",
        help: "harts whose tick stops while they run a single task (e.g. 1)",
    });
    TIMER_MIGRATION: Int = Setting::int(Tunable {
        name: "timer_migration",
        kind: Kind::Int { min: 0, max: 1 },
        default: "1",
        unit: "",
        help: "1: a sleep timer armed on an isolcpus or nohz_full hart fires on a housekeeping hart; 0: on its own hart",
    });
}

/// How several harts share the work, from the command line.
pub struct Smp {
    /// One fair run queue per hart (else one shared by all).
    pub perhart: bool,
    /// `isolcpus=` and `nohz_full=`, as masks of harts.
    pub isolated: u32,
    pub nohz_full: u32,
    /// A sleep timer armed on an isolated or `nohz_full` hart fires on a housekeeping hart.
    pub timer_migration: bool,
    /// How often a busy hart balances (an idle one balances at every tick): as given, else
    /// Linux's busy interval for a domain of the harts outside `isolcpus=`.
    pub balance_ns: u64,
    pub migration_cost_ns: u64,
    pub nr_migrate: usize,
    /// What a real-time task running on a hart leaves fair tasks of its capacity: the share
    /// RT throttling keeps for them (1 of 1024 without throttling).
    fair_capacity: u64,
    next_balance: [u64; MAX_HARTS],
    /// Per hart: periodic passes in a row that moved nothing (`nr_balance_failed`).
    failed: [u32; MAX_HARTS],
    /// Per hart: an active balance asked of it (move a task to that hart once its current
    /// task has stopped).
    active: [Option<usize>; MAX_HARTS],
    /// Per hart: `avg_idle`, the average length of its idle periods that ended with a wakeup
    /// onto it, and when its current one began (`idle_stamp`).
    avg_idle: [u64; MAX_HARTS],
    idle_stamp: [Option<u64>; MAX_HARTS],
    /// The domain's `max_newidle_lb_cost`: the longest a newidle pass took (ns), decaying by
    /// 3/256 a second, and when it last changed.
    newidle_cost: u64,
    newidle_cost_at: u64,
    /// What wakeup placement remembers of each task, and (past `MAX_TASKS`) of each hart's
    /// idle loop, which wakes tasks from its timer interrupts as Linux's idle task does.
    wakee: [Wakee; MAX_TASKS + MAX_HARTS],
}

/// A task's wakeup history, as Linux's `task_struct` keeps it for `wake_wide` and
/// `select_idle_sibling`.
#[derive(Clone, Copy)]
struct Wakee {
    /// `wakee_flips`: how often it woke a task other than the one it woke last, halved once a
    /// second (`record_wakee`).
    flips: u32,
    last: Tid,
    decayed_at: u64,
    /// `recent_used_cpu`: the hart it was last placed from.
    recent: usize,
}

impl Smp {
    pub const ONE: Smp = Smp {
        perhart: false,
        isolated: 0,
        nohz_full: 0,
        timer_migration: true,
        balance_ns: 0,
        migration_cost_ns: 0,
        nr_migrate: 0,
        fair_capacity: CAPACITY,
        next_balance: [0; MAX_HARTS],
        failed: [0; MAX_HARTS],
        active: [None; MAX_HARTS],
        avg_idle: [0; MAX_HARTS],
        idle_stamp: [None; MAX_HARTS],
        newidle_cost: 0,
        newidle_cost_at: 0,
        wakee: [Wakee { flips: 0, last: 0, decayed_at: 0, recent: usize::MAX }; MAX_TASKS + MAX_HARTS],
    };

    pub fn new(s: &Settings<'static>) -> Result<Smp, ArgError<'static>> {
        let every = (1u32 << s.get(&runqueue_machine_settings::SMP)) - 1;
        let (isolated, nohz_full) = (s.get(&ISOLCPUS), s.get(&NOHZ_FULL));
        if (isolated | nohz_full) & !every != 0 {
            return Err(ArgError::Invalid("isolcpus/nohz_full", "names a hart this run does not have (see smp=)"));
        }
        if isolated == every || nohz_full == every {
            return Err(ArgError::Invalid("isolcpus/nohz_full", "at least one hart must stay for housekeeping"));
        }
        Ok(Smp {
            perhart: s.get(&RQ),
            isolated,
            nohz_full,
            timer_migration: s.get(&TIMER_MIGRATION) == 1,
            balance_ns: if s.is_given(&BALANCE_MS) {
                s.get(&BALANCE_MS) as u64 * 1_000_000
            } else {
                // A domain of one hart moves nothing (Linux builds none); its passes keep two harts' interval.
                (every & !isolated).count_ones().max(2) as u64 * INTERVAL_PER_HART_NS * BUSY_FACTOR
            },
            migration_cost_ns: s.get(&MIGRATION_COST) as u64,
            nr_migrate: s.get(&NR_MIGRATE) as usize,
            fair_capacity: match (s.get(&rt::RUNTIME), s.get(&rt::PERIOD)) {
                (runtime, period) if runtime >= 0 => (CAPACITY - CAPACITY * runtime as u64 / period as u64).max(1),
                _ => 1,
            },
            // `rq->avg_idle` starts at twice the migration cost.
            avg_idle: [2 * s.get(&MIGRATION_COST) as u64; MAX_HARTS],
            ..Smp::ONE
        })
    }
}

/// Why a task moved to another hart's queue (the `why=` of a `migrate` event).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// A waking task placed on another hart than its last.
    Placement,
    Periodic,
    NewIdle,
    Active,
    /// Its own hart is no longer in its mask (`set_affinity`).
    Affinity,
}

impl Move {
    fn name(self) -> &'static str {
        match self {
            Move::Placement => "placement",
            Move::Periodic => "periodic",
            Move::NewIdle => "newidle",
            Move::Active => "active",
            Move::Affinity => "affinity",
        }
    }
}

impl Kernel {
    /// Several fair queues to keep in balance.
    pub(super) fn multiqueue(&self) -> bool {
        self.smp.perhart && self.harts > 1
    }

    /// The harts that take part in placement and balancing.
    fn domain(&self) -> u32 {
        ((1u32 << self.harts) - 1) & !self.smp.isolated
    }

    /// Whether `tid` is a runnable (or running) fair task of hart `h`'s queue.
    fn on_queue(&self, tid: Tid, h: usize) -> bool {
        let t = &self.tasks[tid];
        t.class == Class::Fair && t.queue == h && matches!(t.state, State::Runnable | State::Running(_))
    }

    fn queue_tasks(&self, h: usize) -> impl Iterator<Item = Tid> + '_ {
        (1..=self.count).filter(move |&t| self.on_queue(t, h))
    }

    /// Runnable fair tasks on hart `h`'s queue, the running one included (`nr_running`).
    pub(super) fn nr_running(&self, h: usize) -> usize {
        self.queue_tasks(h).count()
    }

    /// The load of hart `h`'s fair queue scaled by the capacity fair tasks have there: a hart
    /// running a real-time or deadline task leaves them only what RT throttling leaves
    /// (Linux's `scale_rt_capacity`, here from what runs now rather than an average), so its
    /// waiting fair tasks weigh as if on a much smaller CPU and move elsewhere.
    fn load(&self, h: usize) -> u64 {
        let load: u64 = self.queue_tasks(h).map(|t| weight(self.tasks[t].nice, self.tasks[t].policy)).sum();
        let running = self.current[h];
        if running == 0 || self.tasks[running].class == Class::Fair {
            return load;
        }
        load * CAPACITY / self.smp.fair_capacity
    }

    /// Whether hart `h`'s queue has a fair task to spare (`nr_running > 1`): two or more
    /// runnable, or one waiting while a real-time or deadline task holds the hart.
    fn crowded(&self, h: usize) -> bool {
        let running = self.current[h];
        let held = running != 0 && self.tasks[running].class != Class::Fair;
        self.nr_running(h) >= if held { 1 } else { 2 }
    }

    fn idle(&self, h: usize) -> bool {
        self.current[h] == 0 && self.nr_running(h) == 0
    }

    /// The least loaded hart of `mask`; on a tie the lowest-numbered.
    fn least_loaded(&self, mask: u32) -> Option<usize> {
        (0..self.harts).filter(|h| mask & (1 << h) != 0).min_by_key(|&h| (self.load(h), h))
    }

    /// `task_hot`: it left a hart less than `sched_migration_cost_ns` ago; a SCHED_IDLE task
    /// never counts as hot. Balancing asks it (`can_migrate_task`); wakeups never do.
    fn hot(&self, tid: Tid, now: u64) -> bool {
        let t = &self.tasks[tid];
        t.policy != FairPolicy::Idle && t.last_ran != 0 && now.saturating_sub(t.last_ran) < self.smp.migration_cost_ns
    }

    /// Idle for a waking task (`available_idle_cpu || sched_idle_cpu`): nothing runs there, or
    /// only SCHED_IDLE tasks, which the wakee will preempt.
    fn idle_for_wakeup(&self, h: usize) -> bool {
        let running = self.current[h];
        let held = running != 0 && self.tasks[running].class != Class::Fair;
        !held && self.queue_tasks(h).all(|t| self.tasks[t].policy == FairPolicy::Idle)
    }

    /// The harts `tid` may be placed on: its allowed harts in the domain, or, for a task
    /// pinned to isolated harts only, those.
    fn placeable(&self, tid: Tid) -> u32 {
        let allowed = self.tasks[tid].allowed;
        if allowed & self.domain() != 0 { allowed & self.domain() } else { allowed }
    }

    /// A new task goes to the least loaded hart it may use (`find_idlest_cpu`); on a tie the
    /// lowest-numbered.
    pub(super) fn place_new(&mut self, tid: Tid) {
        let ok = self.placeable(tid);
        // Not yet counted anywhere: it is runnable, but on no queue until now.
        self.tasks[tid].queue = usize::MAX;
        let hart = self.least_loaded(ok).unwrap_or(0);
        self.tasks[tid].queue = hart;
        self.smp.wakee[tid] = Wakee { recent: hart, ..Smp::ONE.wakee[0] };
    }

    /// Who wakes a task on hart `h`: the task running there (in a timer interrupt, the one
    /// it interrupted, as Linux's `current`), or that hart's idle loop.
    fn waker(&self, h: usize) -> usize {
        match self.current[h] {
            0 => MAX_TASKS + h,
            tid => tid,
        }
    }

    /// `record_wakee`: the waker's flips count wakeups of a task other than its last one,
    /// halved when a second has passed since it last halved them.
    fn record_wakee(&mut self, waker: usize, wakee: Tid, now: u64) {
        let w = &mut self.smp.wakee[waker];
        if now > w.decayed_at + 1_000_000_000 {
            w.flips >>= 1;
            w.decayed_at = now;
        }
        if w.last != wakee {
            w.last = wakee;
            w.flips += 1;
        }
    }

    /// `wake_wide`: the waker and wakee both switch partners often (one wakes many, the many
    /// wake others), more than the harts sharing a cache: spread them rather than pull them
    /// to the waker.
    fn wake_wide(&self, waker: usize, wakee: Tid) -> bool {
        let factor = self.domain().count_ones();
        let (a, b) = (self.smp.wakee[waker].flips, self.smp.wakee[wakee].flips);
        let (master, slave) = (a.max(b), a.min(b));
        slave >= factor && master >= slave * factor
    }

    /// `wake_affine` between the waking hart `this` and the wakee's previous hart `prev`:
    /// WA_IDLE (`wake_affine_idle`: an idle waking hart takes it unless `prev` is idle too; a
    /// sync waker alone on its hart hands it over; an idle `prev` keeps it), else WA_WEIGHT
    /// (`wake_affine_weight`: `this` if its load with the wakee, less a sync waker's, stays
    /// under `prev`'s by half the imbalance margin, WA_BIAS). Loads are instantaneous weights
    /// (no PELT), so the wakee, asleep, counts on neither hart.
    fn wake_affine(&self, tid: Tid, this: usize, prev: usize, sync: bool) -> usize {
        if self.idle(this) {
            return if self.idle(prev) { prev } else { this };
        }
        if sync && self.nr_running(this) == 1 {
            return this;
        }
        if self.idle(prev) {
            return prev;
        }
        let mut this_load = self.load(this);
        if sync {
            let current = self.current[this];
            let current_load = if current == 0 { 0 } else { weight(self.tasks[current].nice, self.tasks[current].policy) };
            if current_load > this_load {
                return this;
            }
            this_load -= current_load;
        }
        let this_eff = (this_load + weight(self.tasks[tid].nice, self.tasks[tid].policy)) * 100;
        let prev_eff = self.load(prev) * (100 + (IMBALANCE_PCT - 100) / 2) + u64::from(sync);
        if this_eff < prev_eff { this } else { prev }
    }

    /// `select_idle_sibling`: `target` if it is idle, else `prev` if idle, else the hart the
    /// task was placed from before (`recent_used_cpu`) if idle, else the first idle hart after
    /// `target` (`select_idle_cpu`), else `target`. Linux 6.1 and 6.12 also skip the scan when
    /// the cache domain is busy on average (SIS_UTIL, from PELT), which this kernel does not
    /// track: it always looks.
    fn select_idle_sibling(&mut self, tid: Tid, prev: usize, target: usize) -> usize {
        if self.idle_for_wakeup(target) {
            return target;
        }
        if prev != target && self.idle_for_wakeup(prev) {
            return prev;
        }
        let ok = self.placeable(tid);
        let may = |h: usize| ok & (1 << h) != 0;
        let recent = core::mem::replace(&mut self.smp.wakee[tid].recent, prev);
        if recent != prev && recent != target && recent < self.harts && may(recent) && self.idle_for_wakeup(recent) {
            return recent;
        }
        let after = (target + 1..self.harts).chain(0..target);
        after.clone().find(|&h| may(h) && self.idle_for_wakeup(h)).unwrap_or(target)
    }

    /// `select_task_rq_fair` for a wakeup on hart `waking`: the waker records the wakee; unless
    /// the two wake wide, `wake_affine` chooses between the waking hart and the task's previous
    /// one; `select_idle_sibling` then looks for an idle hart from there. Linux never asks
    /// whether the task is cache-hot here (`task_hot` is the balancer's).
    fn select_wake(&mut self, tid: Tid, waking: usize, sync: bool, now: u64) -> usize {
        let ok = self.placeable(tid);
        let may = |h: usize| ok & (1 << h) != 0;
        let prev = self.tasks[tid].queue;
        let prev = if may(prev) { prev } else { self.least_loaded(ok).unwrap_or(prev) };
        let waker = self.waker(waking);
        self.record_wakee(waker, tid, now);
        let in_domain = |h: usize| self.domain() & (1 << h) != 0;
        let want_affine = !self.wake_wide(waker, tid) && may(waking) && in_domain(waking) && in_domain(prev);
        let target = if want_affine && waking != prev { self.wake_affine(tid, waking, prev, sync) } else { prev };
        if !in_domain(target) {
            return target;
        }
        self.select_idle_sibling(tid, prev, target)
    }

    /// Moves fair task `tid` (queued, or about to wake) to hart `to`'s queue, with a
    /// `migrate` event; false when the policy cannot move tasks.
    fn move_task(&mut self, tid: Tid, to: usize, why: Move, now: u64) -> bool {
        let from = self.tasks[tid].queue;
        let queued = self.tasks[tid].state == State::Runnable;
        if from == to || !self.policy.migrate(&self.tasks[tid], to, queued, now) {
            return false;
        }
        self.tasks[tid].queue = to;
        let (policy, t) = (&self.policy, &self.tasks[tid]);
        trace::event(now, "migrate", tid, |l| {
            l.field("from", from as u64).field("to", to as u64).push(" why=").push(why.name());
            policy.describe(t, l);
        });
        true
    }

    /// Leaving hart `hart`, fair task `tid` goes to the least loaded hart of its mask if `hart`
    /// is no longer in it (`sched_setaffinity` moves a task off a CPU it may not use).
    pub(super) fn leave_disallowed(&mut self, tid: Tid, hart: usize, now: u64) {
        let ok = self.tasks[tid].allowed;
        if ok & (1 << hart) != 0 || self.tasks[tid].class != Class::Fair {
            return;
        }
        if let Some(to) = self.least_loaded(ok)
            && self.move_task(tid, to, Move::Affinity, now)
            && self.current[to] == 0
        {
            hart::kick(to);
        }
    }

    /// Places waking fair task `tid` (`select_wake`) before it is enqueued.
    pub(super) fn place_wakeup(&mut self, tid: Tid, waker: usize, sync: bool, now: u64) {
        let to = self.select_wake(tid, waker, sync, now);
        self.move_task(tid, to, Move::Placement, now);
    }

    /// `newidle_balance` (Linux 6.1 to 6.12): `local` found nothing to run. It balances only
    /// if some queue has a task to spare (`rd->overload`; here from the queues as they are,
    /// where Linux keeps a flag that the next balancing pass clears) and if it expects to stay
    /// idle longer than a pass costs (`avg_idle` against `max_newidle_lb_cost`, both measured
    /// in this machine's time, as Linux measures them in its own).
    /// An idle hart's later looks at its queue (after each interrupt) are not newidle passes:
    /// Linux balances an idle CPU from its tick.
    pub(super) fn newidle_balance(&mut self, local: usize, now: u64) {
        if self.smp.idle_stamp[local].is_some() {
            return;
        }
        self.smp.idle_stamp[local] = Some(now);
        // While it stays idle, every tick balances (`periodic_balance`); should it be busy
        // again by its next tick, that tick balances too (`update_next_balance` on the way out).
        let next = &mut self.smp.next_balance[local];
        *next = (*next).min(now + self.tick_ns);
        let domain = self.domain();
        let overload = (0..self.harts).any(|h| domain & (1 << h) != 0 && self.crowded(h));
        if now > self.smp.newidle_cost_at + 1_000_000_000 {
            self.smp.newidle_cost = self.smp.newidle_cost * 253 / 256;
            self.smp.newidle_cost_at = now;
        }
        if !overload || self.smp.avg_idle[local] < self.smp.newidle_cost {
            return;
        }
        self.balance(local, Move::NewIdle, now);
        let cost = crate::arch::now_ns().saturating_sub(now);
        if cost > self.smp.newidle_cost {
            (self.smp.newidle_cost, self.smp.newidle_cost_at) = (cost, now);
        }
        if self.nr_running(local) > 0 {
            self.smp.idle_stamp[local] = None;
        }
    }

    /// Hart `h` picked a task: its idle period, if any, is over.
    pub(super) fn busy(&mut self, h: usize) {
        self.smp.idle_stamp[h] = None;
    }

    /// A task woke onto hart `h`: an idle period that began there ends, and `avg_idle` takes
    /// it in (`update_avg`: an eighth of the way), no further than twice the larger of the
    /// migration cost and a newidle pass's cost (`max_idle_balance_cost`).
    pub(super) fn end_idle(&mut self, h: usize, now: u64) {
        let Some(since) = self.smp.idle_stamp[h].take() else {
            return;
        };
        let avg = self.smp.avg_idle[h] as i64;
        let avg = (avg + (now.saturating_sub(since) as i64 - avg) / 8) as u64;
        self.smp.avg_idle[h] = avg.min(2 * self.smp.migration_cost_ns.max(self.smp.newidle_cost));
    }

    /// At a tick on `local`: balance if this hart's interval has passed. An idle hart's
    /// interval is one tick, so it balances at every tick: Linux counts the interval in
    /// jiffies, where the next tick is always one on. Timed by the moment a tick is handled,
    /// which trails the tick by varying amounts, `now + tick` often falls just after the next
    /// tick, and an idle hart would balance at every other tick.
    pub(super) fn periodic_balance(&mut self, local: usize, now: u64) {
        let idle = self.idle(local);
        if now < self.smp.next_balance[local] && !idle {
            return;
        }
        let interval = if idle { self.tick_ns } else { self.smp.balance_ns };
        self.smp.next_balance[local] = now + interval;
        self.balance(local, Move::Periodic, now);
    }

    /// `load_balance`: pulls tasks from the busiest queue of the domain to `local`. An idle
    /// hart pulls one task from any queue with a task waiting; a busy one pulls while the
    /// busiest load exceeds its own by `IMBALANCE_PCT`, up to the imbalance, each task's load
    /// halved per failed pass before (so a task too heavy to even the loads moves after a few
    /// passes), and cache-hot tasks only after `CACHE_NICE_TRIES` failed passes. After more
    /// failures it asks the busiest hart for an active balance.
    pub(super) fn balance(&mut self, local: usize, pass: Move, now: u64) {
        let domain = self.domain();
        if domain & (1 << local) == 0 || self.smp.balance_ns == 0 {
            return;
        }
        let idle = self.idle(local);
        let key = |h: usize| {
            if idle { self.nr_running(h) as u64 } else { self.load(h) }
        };
        let candidates = (0..self.harts).filter(|&h| h != local && domain & (1 << h) != 0 && self.crowded(h));
        let Some(busiest) = candidates.max_by_key(|&h| (key(h), core::cmp::Reverse(h))) else {
            return;
        };
        let (busiest_load, local_load) = (self.load(busiest), self.load(local));
        let mut imbalance = if idle {
            u64::MAX
        } else {
            if busiest_load * 100 <= IMBALANCE_PCT * local_load {
                return;
            }
            let harts = domain.count_ones() as u64;
            let average = (0..self.harts).filter(|h| domain & (1 << h) != 0).map(|h| self.load(h)).sum::<u64>() / harts;
            (busiest_load.saturating_sub(average)).min(average.saturating_sub(local_load))
        };
        let failed = self.smp.failed[local];
        let mut moved = 0;
        // Coldest first: Linux takes tasks from the tail of the queue's most-recently-run list.
        let mut queued = [0; crate::task::MAX_TASKS];
        let n = self.movable(busiest, local, &mut queued);
        for &tid in &queued[..n] {
            if moved == self.smp.nr_migrate || imbalance == 0 {
                break;
            }
            let weight = weight(self.tasks[tid].nice, self.tasks[tid].policy);
            if (self.hot(tid, now) && failed <= CACHE_NICE_TRIES) || (!idle && weight >> failed.min(63) > imbalance) {
                continue;
            }
            if self.move_task(tid, local, pass, now) {
                moved += 1;
                imbalance = if idle { 0 } else { imbalance.saturating_sub(weight) };
            }
        }
        if moved > 0 {
            self.smp.failed[local] = 0;
        } else if pass == Move::Periodic {
            self.smp.failed[local] += 1;
            let running = self.current[busiest];
            let pinned_away = running == 0 || self.tasks[running].allowed & (1 << local) == 0;
            if self.smp.failed[local] > CACHE_NICE_TRIES + 2 && !pinned_away && self.smp.active[busiest].is_none() {
                self.smp.active[busiest] = Some(local);
                self.smp.failed[local] = CACHE_NICE_TRIES + 1;
                hart::kick(busiest);
            }
        }
        if moved > 0 && self.tick_stopped_for(local) {
            self.restart_tick(local);
        }
    }

    /// The queued (not running) fair tasks of hart `from` that may run on `to`, coldest
    /// first, into `out`; returns how many.
    fn movable(&self, from: usize, to: usize, out: &mut [Tid]) -> usize {
        let mut n = 0;
        for tid in self.queue_tasks(from) {
            if self.tasks[tid].state == State::Runnable && self.tasks[tid].allowed & (1 << to) != 0 {
                out[n] = tid;
                n += 1;
            }
        }
        out[..n].sort_unstable_by_key(|&t| (self.tasks[t].last_ran, t));
        n
    }

    /// After `local`'s task stopped: carry out an active balance asked of it, moving its
    /// coldest movable task whatever its load or heat (`active_load_balance_cpu_stop`).
    pub(super) fn active_balance(&mut self, local: usize, now: u64) {
        let Some(to) = self.smp.active[local].take() else {
            return;
        };
        let mut queued = [0; crate::task::MAX_TASKS];
        if self.movable(local, to, &mut queued) > 0 && self.move_task(queued[0], to, Move::Active, now) {
            hart::kick(to);
        }
    }

    /// Runnable tasks that hart `h` could run but is not running: those of its fair queue, or
    /// with one shared queue all it may run, and the real-time and deadline ones it may run.
    fn waiting_for(&self, h: usize) -> usize {
        let waits =
            |t: &crate::task::Task| t.state == State::Runnable && t.allowed & (1 << h) != 0 && (t.class != Class::Fair || !self.smp.perhart || t.queue == h);
        self.tasks[1..=self.count].iter().filter(|t| waits(t)).count()
    }

    /// `nohz_full`: the tick of `h` stops while it runs one task with nothing waiting for it.
    pub(super) fn tick_stopped_for(&self, h: usize) -> bool {
        self.smp.nohz_full & (1 << h) != 0 && self.current[h] != 0 && self.waiting_for(h) == 0
    }

    /// A task became runnable where a `nohz_full` hart may run it: that hart restarts its tick.
    pub(super) fn restart_ticks_for(&mut self, tid: Tid) {
        if self.smp.nohz_full == 0 {
            return;
        }
        let t = &self.tasks[tid];
        let mask = if t.class == Class::Fair && self.smp.perhart { 1 << t.queue } else { t.allowed };
        let quiet = self.smp.nohz_full & mask;
        for h in (0..self.harts).filter(|h| quiet & (1 << h) != 0) {
            self.restart_tick(h);
        }
    }

    fn restart_tick(&mut self, h: usize) {
        if h == crate::arch::hart_index() {
            self.program_timer(h);
        } else {
            hart::rearm(h);
        }
    }

    /// The hart whose timer wakes a task that sleeps on `h`: `h` itself, or with
    /// `timer_migration` the first housekeeping hart when `h` is isolated or `nohz_full`.
    pub(super) fn timer_hart(&self, h: usize) -> usize {
        let quiet = self.smp.isolated | self.smp.nohz_full;
        if !self.smp.timer_migration || quiet & (1 << h) == 0 {
            return h;
        }
        (0..self.harts).find(|&k| quiet & (1 << k) == 0).unwrap_or(h)
    }
}
