//! What the Runqueue kernel reports, as data: trace events, the RESULT line, and the checks
//! that the tests and the grader run over them. `no_std` + `alloc`, so the browser's wasm
//! build parses exactly as the CLI does.
#![no_std]
extern crate alloc;

pub mod chrome;
pub mod console;
pub mod ftrace;
pub mod ftrace_raw;
pub mod linux;
pub mod props;
pub mod result;
pub mod template;
pub mod trace;

pub use console::Split;
pub use result::{GroupResult, RunResult, TaskResult};
pub use trace::{Event, Kind, ParseError};
