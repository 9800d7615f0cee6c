//! Tunables: what a policy declares it takes (`tunables!`, one table per policy), and how it
//! reads their values (`settings.get(&HANDLE)`). The kernel composes every policy's table into
//! its catalog and parses the command line against it (the book builds its controls from the
//! same catalog); a policy only reads the result, through handles its own file declares, so it
//! reads only what its table names, and the core cannot name a policy's private handles.

pub use runqueue_settings::{Choice, Choices, Features, Fraction, Int, IntList, Invalid, Kind, List, MAX_LIST, Setting, Settings, Text, Tunable, tunables};

/// What the core tells every policy about the run it is built for.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Harts that run tasks (`smp=`).
    pub harts: usize,
    /// The scheduler tick's period (`tick_us=`), in ns.
    pub tick_ns: u64,
    /// The run's seed (`seed=`), for a policy that draws.
    pub seed: u64,
}

/// A millisecond tunable's value in ns.
pub fn ms(value: i64) -> u64 {
    value.max(0) as u64 * 1_000_000
}
