//! Settings: the words of a kernel command line (`sched=cfs cfs.latency_ns=3000000 smp=2`).
//! Each part of Runqueue declares the tunables it reads in a table of its own (`tunables!`):
//! the machine (`smp`, `cache.*`, `host.*`), the kernel's core, each policy, each workload.
//! The tables are composed at the top (the kernel's catalog, the machine's options), and one
//! parser reads a command line against them, for the kernel, the machine, the CLI and the
//! page alike.
//!
//! A part reads a value through the typed handle its table declared (`settings.get(&PI)`), so
//! reading a name no table declares, or reading a number as a list, does not compile; and
//! a value is either what the command line gave or the handle's declared default, never a
//! silent 0. Errors are data (`ArgError`): the kernel prints them in English, the page renders
//! them in the reader's language.
#![no_std]
#![forbid(unsafe_code)]

mod catalog;
mod error;
mod handle;
mod json;
mod parse;
#[cfg(feature = "json")]
pub mod reading;
mod tunable;
mod value;

pub use catalog::{Catalog, Entry, Tables};
pub use error::{ArgError, Invalid};
pub use handle::{Choice, Choices, Features, Fraction, Int, List, Setting, Text, Type};
pub use json::{write_array, write_string, write_strings, write_tunables};
pub use parse::{MAX_GIVEN, Settings, Word, words};
pub use tunable::{IntList, Kind, MAX_LIST, Tunable};
pub use value::{Value, parse_value};

#[cfg(test)]
mod tests;
