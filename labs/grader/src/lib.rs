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
