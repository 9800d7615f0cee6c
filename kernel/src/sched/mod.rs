//! The scheduler framework: one small trait every policy implements, and the table of
//! policies the command line chooses from.
//!
//! The split follows ArceOS's `BaseScheduler` (add / pick / put_prev / tick), with the reason
//! for each enqueue spelled out (a wakeup is not a yield: CFS and BVT place them differently)
//! and CPU time handed to the policy by the core (`charge`), never measured by the policy.
//! The core (`dispatch`) owns the task table, the accounting and the trace; a policy owns
//! only its queue and its per-task state, and shows that state through `describe`.

pub mod bvt;
pub mod cfs;
pub mod class;
pub mod deadline;
pub mod eevdf;
pub mod fifo;
pub mod lab;
pub mod mlfq;
pub mod queue;
pub mod rr;
pub mod rt;
pub mod sjf;

use crate::args::{ArgError, Settings, Tunable};
use crate::line::Line;
use crate::task::{Task, Tid};

/// Why a task is (back) in the run queue.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Enqueue {
    New,
    Wakeup,
    /// Taken off the CPU by a tick or a wakeup.
    Preempted,
    /// Gave the CPU up itself and is still runnable.
    Yielded,
}

/// Where a fair policy's task is: out of the run queue (asleep, blocked, exited), queued, or on
/// a hart. CFS, BVT and EEVDF keep it per entity.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Where {
    Off,
    Queued,
    Running,
}

pub trait Scheduler {
    /// Puts a runnable task in the queue.
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64);
    /// Removes and returns the task `hart` should run next, among those `allowed` there.
    fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid>;
    /// `task` ran `ran_ns` more since its last charge (called before `tick`, `enqueue` of a
    /// preempted or yielding task, `block` and `exit`).
    fn charge(&mut self, _task: &Task, _ran_ns: u64, _now: u64) {}
    /// A timer tick while `current` runs; true asks for it to be preempted.
    fn tick(&mut self, current: &Task, now: u64) -> bool;
    /// Should `woken` (just enqueued) preempt `current`?
    fn wakeup_preempts(&self, _current: &Task, _woken: &Task) -> bool {
        false
    }
    /// `task` left the CPU to sleep or wait; it is in no queue until its wakeup.
    fn block(&mut self, _task: &Task, _now: u64) {}
    /// `task` has exited.
    fn exit(&mut self, _task: &Task) {}
    /// The per-task state shown on `new`, `in` and `wake` trace events (e.g. ` vr=12 min=10`).
    fn describe(&self, _tid: Tid, _out: &mut Line) {}
    /// The discrete state a `state` event reports when it changes (e.g. ` lvl=2`).
    fn milestone(&self, _tid: Tid, _out: &mut Line) {}
}

/// A policy the command line can choose: its name, one-line help, tunables and constructor.
pub struct SchedSpec {
    pub name: &'static str,
    pub help: &'static str,
    pub tunables: &'static [Tunable],
    pub build: fn(&Settings) -> Result<Policy, ArgError>,
}

// One instance lives inside the kernel lock and there is no heap to box the big variants in.
#[allow(clippy::large_enum_variant)]
pub enum Policy {
    Fifo(fifo::Fifo),
    Rr(rr::RoundRobin),
    Cfs(cfs::Cfs),
    Bvt(bvt::Bvt),
    Eevdf(eevdf::Eevdf),
    Sjf(sjf::Sjf),
    Mlfq(mlfq::Mlfq),
    Lab(lab::Lab),
}

impl Policy {
    pub fn get(&mut self) -> &mut dyn Scheduler {
        match self {
            Policy::Fifo(p) => p,
            Policy::Rr(p) => p,
            Policy::Cfs(p) => p,
            Policy::Bvt(p) => p,
            Policy::Eevdf(p) => p,
            Policy::Sjf(p) => p,
            Policy::Mlfq(p) => p,
            Policy::Lab(p) => p.get(),
        }
    }

    pub fn view(&self) -> &dyn Scheduler {
        match self {
            Policy::Fifo(p) => p,
            Policy::Rr(p) => p,
            Policy::Cfs(p) => p,
            Policy::Bvt(p) => p,
            Policy::Eevdf(p) => p,
            Policy::Sjf(p) => p,
            Policy::Mlfq(p) => p,
            Policy::Lab(p) => p.view(),
        }
    }
}

pub const SCHEDULERS: &[SchedSpec] = &[fifo::SPEC, rr::SPEC, cfs::SPEC, sjf::SPEC, mlfq::SPEC, bvt::SPEC, eevdf::SPEC, lab::sjf::SPEC, lab::mlfq::SPEC, lab::bvt::SPEC];

/// Milliseconds from a tunable, in ns.
pub fn ms(settings: &Settings, name: &str) -> u64 {
    settings.int(name).max(0) as u64 * 1_000_000
}
