//! The real-time class, above the fair one (man sched(7)): SCHED_FIFO and SCHED_RR with
//! static priorities 1..=99, one queue per priority, the head of the highest non-empty
//! queue runs. A preempted FIFO task stays at the head of its queue; an RR task runs for a
//! quantum, then goes to the tail if another task of its priority waits, and a preempted RR
//! task keeps the unexpired part of its quantum. RT throttling
//! (`Documentation/scheduler/sched-rt-group.rst`): in each period of `rt.period_us` the
//! class may use `rt.runtime_us` of each hart; past that the hart runs fair tasks (or idles)
//! until the next period. `rt.runtime_us=-1` turns throttling off, as does
//! `rt.starvation=server` (the fair server, `fair_server.rs`; Linux 6.12's default) or `none`;
//! `rt.runtime_us` still bounds what deadline tasks may reserve. `next_event` tells the
//! core when a hart's RT runtime runs out and when its throttled period ends, so both take
//! effect on time rather than at the next tick.

use crate::sched::fair_server::{self, Starvation};
use crate::dispatch::{period_end, period_of};
use crate::hart::MAX_HARTS;
use crate::task::{Class, MAX_TASKS, Task, Tid};
use runqueue_sched_api::{self as api, Enqueue, Fields, Scheduler, TidQueue};
use runqueue_settings::{Int, Kind, Setting, Settings, Tunable, tunables};

const PRIORITIES: usize = 100;

tunables! {
    /// RT throttling and SCHED_RR's quantum.
    pub const TUNABLES;
    pub RUNTIME: Int = Setting::int(Tunable {
        name: "rt.runtime_us",
        kind: Kind::Int { min: -1, max: 100_000_000 },
        default: "950000",
        unit: "us",
        help: "sched_rt_runtime_us: CPU time real-time tasks may use per period on each hart; -1 = no throttling",
    });
    pub PERIOD: Int = Setting::int(Tunable {
        name: "rt.period_us",
        kind: Kind::Int { min: 1000, max: 100_000_000 },
        default: "1000000",
        unit: "us",
        help: "sched_rt_period_us: the throttling period",
    });
    pub RR_SLICE: Int = Setting::int(Tunable {
        name: "rt.rr_slice_ms",
        kind: Kind::Int { min: 1, max: 10_000 },
        default: "100",
        unit: "ms",
        help: "sched_rr_timeslice_ms: the SCHED_RR quantum",
    });
}

pub struct Rt {
    queues: [TidQueue; PRIORITIES],
    prio: [u8; MAX_TASKS],
    rr: [bool; MAX_TASKS],
    /// RR quantum left, in ns.
    quantum_left: [u64; MAX_TASKS],
    allowed: [u32; MAX_TASKS],
    rr_slice: u64,
    /// RT time allowed per period per hart; `None`: unthrottled.
    runtime: Option<u64>,
    period: u64,
    /// Per hart: the period (`dispatch::period_of`) the figure in `used` belongs to.
    window: [u64; MAX_HARTS],
    used: [u64; MAX_HARTS],
    /// What deadline admission leaves real-time and deadline tasks (`share_ppm`).
    share_ppm: u64,
}

impl Rt {
    pub const EMPTY: Rt = Rt {
        queues: [const { TidQueue::new() }; PRIORITIES],
        prio: [0; MAX_TASKS],
        rr: [false; MAX_TASKS],
        quantum_left: [0; MAX_TASKS],
        allowed: [0; MAX_TASKS],
        rr_slice: 100_000_000,
        runtime: None,
        period: 1_000_000_000,
        window: [0; MAX_HARTS],
        used: [0; MAX_HARTS],
        share_ppm: 1_000_000,
    };

    /// The share of each hart real-time and deadline tasks may reserve (`sched_rt_runtime_us`
    /// over `sched_rt_period_us`, all of it at -1), in millionths: deadline admission control
    /// takes it whether or not RT throttling is on, as Linux's does.
    pub fn share_ppm(&self) -> u64 {
        self.share_ppm
    }

    pub fn configure(&mut self, s: &Settings) {
        let runtime = s.get(&RUNTIME);
        self.rr_slice = s.get(&RR_SLICE) as u64 * 1_000_000;
        self.period = s.get(&PERIOD) as u64 * 1000;
        let throttling = runtime >= 0 && fair_server::starvation(s) == Starvation::Throttle;
        self.runtime = throttling.then_some(runtime as u64 * 1000);
        self.share_ppm = if runtime < 0 { 1_000_000 } else { (runtime as u64 * 1000 * 1_000_000 / self.period).min(1_000_000) };
    }

    /// Starts a new throttling period on `hart` if `now` is past the recorded one.
    pub fn roll(&mut self, hart: usize, now: u64) {
        let window = period_of(now, self.period);
        if self.window[hart] != window {
            (self.window[hart], self.used[hart]) = (window, 0);
        }
    }

    /// RT time used in the current period on `hart`.
    fn used(&self, hart: usize, now: u64) -> u64 {
        if self.window[hart] == period_of(now, self.period) { self.used[hart] } else { 0 }
    }

    /// The class has used up its runtime on `hart` for this period.
    pub fn throttled(&self, hart: usize, now: u64) -> bool {
        self.runtime.is_some_and(|r| self.used(hart, now) >= r)
    }

    /// A queued task that may run on `hart` now (not throttled) with priority above `above`.
    pub fn ready(&self, hart: usize, now: u64, above: u8) -> bool {
        !self.throttled(hart, now) && self.queues[above as usize + 1..].iter().any(|q| q.any(&|t| self.allowed[t] & (1 << hart) != 0))
    }

    /// `current` must leave its hart: the class is throttled there or a higher priority waits.
    pub fn outranked(&self, current: &api::Task, now: u64) -> bool {
        let hart = running_hart(current);
        self.throttled(hart, now) || self.ready(hart, now, self.prio[current.tid])
    }

    /// When throttling next changes something on `hart`: the running RT task using up the
    /// period's runtime, or the period's end while the class is throttled and has work.
    pub fn next_event(&self, hart: usize, running: Option<&Task>, now: u64) -> Option<u64> {
        let runtime = self.runtime?;
        let used = self.used(hart, now);
        if used >= runtime {
            let waiting = self.queues.iter().any(|q| q.any(&|t| self.allowed[t] & (1 << hart) != 0));
            return waiting.then_some(period_end(period_of(now, self.period), self.period));
        }
        running.filter(|t| t.class.rank() == 1).map(|t| t.charged_at + (runtime - used))
    }
}

/// The priority and RR flag of a real-time class.
fn prio_of(class: Class) -> (u8, bool) {
    match class {
        Class::Fifo(p) => (p, false),
        Class::Rr(p) => (p, true),
        Class::Fair | Class::Deadline { .. } => (1, false),
    }
}

/// Priority changes of a task holding a mutex (`mutex.rs`), as Linux's `rt_mutex_setprio`.
impl Rt {
    /// A task enters the class: new, or a fair task boosted into it.
    fn join(&mut self, task: &api::Task) {
        let tid = task.tid;
        (self.prio[tid], self.rr[tid]) = prio_of(task.class);
        self.allowed[tid] = task.allowed;
        self.quantum_left[tid] = self.rr_slice;
    }

    /// `task`, whose class is now `task.class`, joins the class from the fair one (`joining`)
    /// or changes priority within it; queued in the run queue if `queued`. A queued task moves
    /// to its new priority's queue: at the tail when raised, at the head when lowered (Linux
    /// enqueues with ENQUEUE_HEAD when the priority drops, so a deboosted task keeps its turn).
    pub fn set_prio(&mut self, task: &api::Task, queued: bool, joining: bool) {
        let tid = task.tid;
        let old = self.prio[tid];
        if joining {
            self.join(task);
        } else {
            if queued {
                self.leave(tid, true);
            }
            (self.prio[tid], self.rr[tid]) = prio_of(task.class);
        }
        if queued {
            let queue = &mut self.queues[self.prio[tid] as usize];
            if !joining && self.prio[tid] < old { queue.push_front(tid) } else { queue.push_back(tid) }
        }
    }

    /// `tid` leaves the class (back to the fair one), out of its queue if `queued`. Its
    /// priority reads 0 again, as every fair task's does (`wakeup_preempts`).
    pub fn leave(&mut self, tid: Tid, queued: bool) {
        if queued {
            self.queues[self.prio[tid] as usize].take_first(&|t| t == tid);
        }
        self.prio[tid] = 0;
    }
}

fn running_hart(task: &api::Task) -> usize {
    task.hart.unwrap_or(0)
}

impl Scheduler for Rt {
    fn enqueue(&mut self, task: &api::Task, why: Enqueue, _now: u64) {
        let tid = task.tid;
        if why == Enqueue::New {
            self.join(task);
        }
        let queue = &mut self.queues[self.prio[tid] as usize];
        let expired = self.rr[tid] && self.quantum_left[tid] == 0;
        if expired {
            self.quantum_left[tid] = self.rr_slice;
        }
        if why == Enqueue::Preempted && !expired {
            queue.push_front(tid);
        } else {
            queue.push_back(tid);
        }
    }

    fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        if self.throttled(hart, now) {
            return None;
        }
        self.queues.iter_mut().rev().find_map(|q| q.take_first(allowed))
    }

    fn charge(&mut self, task: &api::Task, ran_ns: u64, now: u64) {
        let hart = running_hart(task);
        self.roll(hart, now);
        self.used[hart] += ran_ns;
        let left = &mut self.quantum_left[task.tid];
        *left = left.saturating_sub(ran_ns);
    }

    /// Throttling ends any RT stint; an RR task that used its quantum makes way for a peer.
    fn tick(&mut self, current: &api::Task, now: u64) -> bool {
        let (tid, hart) = (current.tid, running_hart(current));
        if self.throttled(hart, now) {
            return true;
        }
        if self.rr[tid] && self.quantum_left[tid] == 0 {
            let peers = self.queues[self.prio[tid] as usize].any(&|t| self.allowed[t] & (1 << hart) != 0);
            if !peers {
                self.quantum_left[tid] = self.rr_slice;
            }
            return peers;
        }
        self.outranked(current, now)
    }

    fn wakeup_preempts(&self, current: &api::Task, woken: &api::Task) -> bool {
        // The class layer just charged the running task, which rolled its hart's window.
        let hart = running_hart(current);
        self.prio[woken.tid] > self.prio[current.tid] && self.runtime.is_none_or(|r| self.used[hart] < r)
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        out.field("prio", self.prio[tid] as u64);
    }
}
