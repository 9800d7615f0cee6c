//! Grades a lab from what the kernel printed: each test's console and trace text go in, a
//! scored result with a first violation comes out. Building and running the kernel is the
//! caller's job (the CLI natively, the page's Worker in wasm), so this crate needs neither
//! files nor an ELF: `no_std` + `alloc`.
//!
//! The checks recompute each policy's decisions from the trace with a reference model
//! (as PintOS's MLFQS tests do) and compare, within stated tolerances, with what the
//! student's policy did; the accounting they read (`ran=`, switch-ins, wakeups) comes from
//! the kernel's core, which the student's file cannot change.
#![no_std]
extern crate alloc;

mod args;

/// How long after a wakeup the preemption it calls for may come and still count as "at once".
/// The wakeup's path through the lab's protection domain (the wake, the policy's enqueue and
/// its preemption check, each a call through the gate, and their trace lines) takes about
/// 70 µs; a tick that lands inside it adds its own handling, about 30 µs more. 200 µs covers
/// both and stays well below a tick (1 ms), which a policy that waits for the next tick loses.
const PREEMPT_SLACK_NS: u64 = 200_000;

mod bvt;
pub mod lab;
pub mod message;
mod mlfq;
pub mod report;
mod sjf;
mod stall;
pub mod spec;

pub use lab::{Lab, Outcome, TestResult, grade_test, zero_on_protection_fault};
pub use message::Message;
pub use report::{Visibility, gradescope_json, markdown, report_json, table};
pub use spec::{TestCase, parse_tests};
