#![no_std]
//! The Runqueue machine: a deterministic RV64IMAC + Zicsr + Zifencei emulator of the platform
//! in `docs/platform.md` (a subset of QEMU `virt`), with the SBI built in.
//!
//! Speed comes from decoding each instruction once into a compact op cached per physical
//! page, running blocks of those ops in one `match` loop, direct-mapped software TLBs, and
//! looking at interrupts and time only between blocks; code that runs long is handed to a
//! compiler (`jit`) that the embedder supplies (the CLI, the page). Time is derived from retired
//! instructions (and, with the optional data cache, from its misses), so the same input gives
//! the same output on every computer. "Host" means one thing here: the modelled host below the
//! guest (`host`, `host=`); HTIF's `tohost` is only a symbol's name, and whatever runs the
//! emulator is the embedder.

extern crate alloc;
#[cfg(test)]
extern crate std;

mod bus;
mod cache;
mod code;
mod csr;
mod decode;
mod elf;
mod error;
mod exec;
mod fdt;
mod hart;
pub mod jit;
mod host;
mod linux;
mod machine;
mod mmu;
mod pmp;
mod options;
mod sbi;
mod snapshot;
mod snapshot_bytes;
mod uart;

#[cfg(test)]
mod tests;

pub use cache::CacheConfig;
pub use error::LoadError;
pub use host::{HostConfig, Policy as HostPolicy};
pub use machine::{BootMode, Config, Exec, Fault, Machine, Stop};
pub use linux::{LINUX_WORDS, command_line, is_image as is_linux_image};
pub use options::MachineOptions;
pub use snapshot::{Snapshot, Snapshots, Started};

/// Most harts a machine can have.
pub const MAX_HARTS: usize = 8;
/// Retired instructions per `mtime` tick: one instruction is 10 ns, mtime runs at 10 MHz.
pub const TICKS_PER_MTIME: u64 = 10;
/// Emulated nanoseconds per retired instruction.
pub const NS_PER_INSTRUCTION: u64 = 10;
/// `timebase-frequency` in the FDT.
pub const TIMEBASE_HZ: u32 = 10_000_000;
/// Where the FDT goes: this far below the end of RAM.
pub const FDT_FROM_RAM_END: u64 = 2 << 20;
