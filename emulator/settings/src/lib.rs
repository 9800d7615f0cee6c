//! The machine's words of a kernel command line (`docs/platform.md`, "Machine options"): the
//! run's harts, seed and trace, the data cache's shape, the modelled host. The machine reads
//! them to build itself (`runqueue_emu::MachineOptions`), and the kernel composes these tables
//! into its own catalog, so that one command line, checked by one table, sets up the machine
//! in the CLI, the page, the grader and the figures, and reaches the guest unchanged. QEMU has
//! neither cache nor host and ignores those words.
#![no_std]
#![forbid(unsafe_code)]

use runqueue_settings::{Choice, Int, Kind, Setting, Tunable, tunables};

/// Most harts the machine builds.
pub const MAX_HARTS: i64 = 8;

tunables! {
    /// The run's words: how many harts, the seed of anything random, whether to trace.
    pub const RUN;
    pub SMP: Int = Setting::int(Tunable {
        name: "smp",
        kind: Kind::Int { min: 1, max: MAX_HARTS },
        default: "1",
        unit: "harts",
        help: "harts that run tasks (QEMU and the emulator must provide at least this many)",
    });
    pub SEED: Int = Setting::int(Tunable {
        name: "seed",
        kind: Kind::Int { min: 0, max: u32::MAX as i64 },
        default: "0",
        unit: "",
        help: "seed for anything random: a workload's, and sched=lottery's draws (reported in RESULT)",
    });
    pub TRACE: Choice<bool> = Setting::choice(
        Tunable { name: "trace", kind: Kind::Choice(&["on", "off"]), default: "on", unit: "", help: "emit trace events (trace device, or @-lines on the UART)" },
        &[true, false],
    );
}

/// The run's words for a kernel that runs tasks on at most `max_harts` of the machine's harts:
/// its catalog offers and its parser takes `smp=` up to that.
pub const fn run_words(max_harts: i64) -> [Tunable; 3] {
    let mut smp = SMP.tunable;
    smp.kind = Kind::Int { min: 1, max: max_harts };
    [smp, SEED.tunable, TRACE.tunable]
}

pub mod cache;
pub mod host;

/// The namespaces the machine owns: a word in one of them must be one of its tables'.
pub const OWNED: &[&str] = &["cache.", "host."];

/// Every table the machine reads, in the order the kernel's catalog lists them.
pub const TABLES: &[&[Tunable]] = &[RUN, cache::TABLE, host::TABLE];
