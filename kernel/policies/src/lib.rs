//! The kernel's own scheduling policies, one per file, each a `Scheduler` with the `SchedSpec`
//! that builds it. Like the students' lab files, they see the kernel only through
//! `runqueue-sched-api`, and no policy here may use `unsafe`.
#![no_std]
#![forbid(unsafe_code)]
// Queues and buffers are built by `const fn new` for statics; a `Default` would add nothing.
#![allow(clippy::new_without_default)]

pub mod bvt;
pub mod cfs;
pub mod eevdf;
pub mod fifo;
pub mod mlfq;
pub mod rr;
pub mod sjf;

use runqueue_sched_api::policy_table;

/// Where a fair policy's task is: out of the run queue (asleep, blocked, exited), queued, or on
/// a hart. CFS, BVT and EEVDF keep it per entity.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Where {
    Off,
    Queued,
    Running,
}

policy_table!(
    /// The policy `sched=` chose.
    Policy, SCHEDULERS:
    Fifo(fifo::Fifo),
    Rr(rr::RoundRobin),
    Cfs(cfs::Cfs),
    Sjf(sjf::Sjf),
    Mlfq(mlfq::Mlfq),
    Bvt(bvt::Bvt),
    Eevdf(eevdf::Eevdf),
);

impl Policy {
    /// Before the command line is read: no tasks exist yet.
    pub const IDLE: Policy = Policy::Fifo(fifo::Fifo::new());
}
