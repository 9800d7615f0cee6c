//! Named workloads: sets of tasks whose work is counted in instructions, so a run is the
//! same for a given seed and arguments. Each takes `wl.*` tunables to scale it; defaults
//! keep the shape of the experiment in the seeds (`001`: ArceOS comparison, `004`: CFS
//! tunables) at 0.5-3 s of emulated time (the emulator runs 100 M instructions a second).

mod fairness;
mod occupy;
mod realtime;
mod sleepers;
mod spin;
mod yield_speed;

use crate::args::{ArgError, IntList, Kind, Settings, Tunable};
use crate::dispatch::Kernel;
use crate::task::{Args, Entry};

pub struct WorkloadSpec {
    pub name: &'static str,
    pub help: &'static str,
    pub tunables: &'static [Tunable],
    pub spawn: fn(&Settings, &mut Spawner) -> Result<(), ArgError>,
}

pub const WORKLOADS: &[WorkloadSpec] = &[
    fairness::EQUAL,
    fairness::UNEQUAL,
    yield_speed::SPEC,
    realtime::SPEC,
    occupy::SPEC,
    spin::SPEC,
    sleepers::SPEC,
];

/// Creates a workload's tasks, giving the n-th one the n-th value of `nice=`.
pub struct Spawner<'a> {
    kernel: &'a mut Kernel,
    nice: IntList,
    spawned: usize,
}

impl<'a> Spawner<'a> {
    pub fn new(kernel: &'a mut Kernel, settings: &Settings) -> Spawner<'a> {
        Spawner { kernel, nice: settings.list("nice"), spawned: 0 }
    }

    /// Creates a task running `entry` with `args` (zero-filled to the full argument array).
    pub fn spawn(&mut self, name: &str, index: Option<usize>, entry: Entry, args: &[u64]) -> Result<(), ArgError> {
        let mut full: Args = [0; 6];
        full[..args.len()].copy_from_slice(args);
        let nice = self.nice.as_slice().get(self.spawned).copied().unwrap_or(0) as i32;
        self.spawned += 1;
        self.kernel
            .spawn(name, index, nice, entry, full)
            .map(|_| ())
            .map_err(|_| ArgError::Invalid("workload", "too many tasks for the task table (at most 63)"))
    }
}

/// Per-task nice values, in spawn order (a global tunable: every workload takes it).
pub const NICE: Tunable = Tunable {
    name: "nice",
    kind: Kind::List { min: -20, max: 19 },
    default: "0",
    unit: "",
    help: "nice of each task in creation order (e.g. 0,-5,5); tasks past the list get 0. CFS weighs them",
};

pub const fn tasks(default: &'static str) -> Tunable {
    Tunable { name: "wl.tasks", kind: Kind::Int { min: 1, max: 32 }, default, unit: "tasks", help: "number of tasks" }
}

pub const fn units(default: &'static str, help: &'static str) -> Tunable {
    Tunable { name: "wl.units", kind: Kind::Int { min: 1, max: 10_000_000 }, default, unit: "units", help }
}

pub const fn unit_insns(default: &'static str, help: &'static str) -> Tunable {
    Tunable { name: "wl.unit_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default, unit: "instructions", help }
}

pub const fn run_ms(default: &'static str) -> Tunable {
    Tunable { name: "wl.run_ms", kind: Kind::Int { min: 1, max: 60_000 }, default, unit: "ms", help: "how long the tasks keep working" }
}

/// A non-negative integer tunable as u64.
pub fn get(s: &Settings, name: &str) -> u64 {
    s.int(name).max(0) as u64
}
