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
pub mod fair_policy;
pub mod fifo;
pub mod lottery;
pub mod mlfq;
pub mod o1;
pub mod rr;
pub mod sjf;
pub mod stride;

use runqueue_sched_api::policy_table;

/// Where a fair policy's task is: out of the run queue (asleep, blocked, exited), queued, or on
/// a hart. CFS, BVT, EEVDF, lottery, stride and O(1) keep it per task.
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
    Lottery(lottery::Lottery),
    Stride(stride::Stride),
    O1(o1::O1),
    Bvt(bvt::Bvt),
    Eevdf(eevdf::Eevdf),
);

impl Policy {
    /// A placeholder until the command line has chosen the policy (an empty FIFO queue, which
    /// no task ever reaches: tasks exist only after the policy is built).
    pub const UNSET: Policy = Policy::Fifo(fifo::Fifo::new());
}
