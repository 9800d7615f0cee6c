//! The lab slot: the policies students write (`labs/<lab>/`). Each `<lab>.rs` here is the
//! lab's skeleton; the grader builds the kernel with the student's file in its place.
//!
//! This crate depends on `runqueue-sched-api` alone, so a lab file can reach nothing of the
//! kernel but that API (not the task table, the accounting, the trace or the power switch),
//! and this root, which the student does not write, forbids `unsafe` in every module of it.
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
