//! The lab slot: the policies students write (`labs/<lab>/`). Each `<lab>.rs` here is the
//! lab's skeleton; the grader builds the kernel with the student's file in its place.
//!
//! This crate depends on `runqueue-sched-api` alone, so a lab file can reach nothing of the
//! kernel but that API (not the task table, the accounting, the trace or the power switch),
//! and this root, which the student does not write, forbids `unsafe` in every module of it.
//! And since the compiler's checks have holes, the code runs in a protection domain of its own
//! besides (`kernel/lab-domain`): pages that map nothing of the kernel.
#![no_std]
#![forbid(unsafe_code)]

pub mod bvt;
pub mod mlfq;
pub mod sjf;

runqueue_sched_api::policy_table!(
    /// The lab policy `sched=lab-<lab>` chose.
    Lab, SCHEDULERS:
    Sjf(sjf::Sjf),
    Mlfq(mlfq::Mlfq),
    Bvt(bvt::Bvt),
);

/// The same policies as the kernel core sees them: names, help and tunables, no code. Their
/// code runs only in the lab's protection domain (`kernel/lab-domain`), which builds them
/// from `SCHEDULERS`, in this order.
pub const SPECS: &[runqueue_sched_api::Described] = &[sjf::SPEC.described(), mlfq::SPEC.described(), bvt::SPEC.described()];
