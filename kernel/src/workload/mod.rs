//! Named workloads: sets of tasks whose work is counted in instructions, so a run is the
//! same for a given seed and arguments. Each takes `wl.*` tunables to scale it; defaults
//! keep the shape of the experiment in the seeds (`001`: ArceOS comparison, `004`: CFS
//! tunables) at 0.5-3 s of emulated time (the emulator runs 100 M instructions a second).

mod cyclictest;
mod deadline;
mod fairness;
mod hackbench;
mod jobs;
mod inversion;
mod occupy;
mod realtime;
mod sleepers;
mod spin;
mod yield_speed;

use crate::args::{ArgError, IntList, Kind, Settings, Tunable};
use crate::dispatch::Kernel;
use crate::task::{Args, Class, Entry, FairPolicy, Params, Tid};

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
    hackbench::SPEC,
    cyclictest::SPEC,
    deadline::SPEC,
    jobs::BURSTS,
    jobs::ARRIVALS,
    inversion::SPEC,
    jobs::TIMED_BURSTS,
];

/// Creates a workload's tasks. The n-th task gets the n-th value of each per-task list on
/// the command line (`nice=`, `rtprio=`, `warp_us=`, `affinity=`, `arrive_ms=`, `tickets=`,
/// `slice_us=`, `policy=`) over the parameters the workload chose for it.
pub struct Spawner<'a> {
    kernel: &'a mut Kernel,
    lists: [IntList; 8],
    rr: bool,
    spawned: usize,
}

impl<'a> Spawner<'a> {
    pub fn new(kernel: &'a mut Kernel, settings: &Settings) -> Spawner<'a> {
        let given = |name| {
            if settings.given(name) { settings.list(name) } else { IntList::EMPTY }
        };
        let lists = [given("nice"), given("rtprio"), given("warp_us"), given("affinity"), given("arrive_ms"), given("tickets"), given("slice_us"), given("policy")];
        Spawner { kernel, lists, rr: settings.int("rtpolicy") == 1, spawned: 0 }
    }

    /// Creates a fair task running `entry` with `args` (zero-filled to the full array).
    pub fn spawn(&mut self, name: &str, index: Option<usize>, entry: Entry, args: &[u64]) -> Result<(), ArgError> {
        self.spawn_with(Params::FAIR, name, index, entry, args).map(|_| ())
    }

    /// Creates a task with the workload's `params`, overridden by the command line's lists.
    pub fn spawn_with(&mut self, mut params: Params, name: &str, index: Option<usize>, entry: Entry, args: &[u64]) -> Result<Tid, ArgError> {
        let mut full: Args = [0; 6];
        full[..args.len()].copy_from_slice(args);
        let n = self.spawned;
        self.spawned += 1;
        let [nice, rtprio, warp, harts, arrive, tickets, slice, policy] = self.lists.map(|l| l.as_slice().get(n).copied());
        params.nice = nice.map_or(params.nice, |v| v as i32);
        params.class = match rtprio {
            Some(0) => Class::Fair,
            Some(p) if self.rr => Class::Rr(p as u8),
            Some(p) => Class::Fifo(p as u8),
            None => params.class,
        };
        params.policy = policy.map_or(params.policy, |p| FairPolicy::ALL[p as usize]);
        params.warp_ns = warp.map_or(params.warp_ns, |us| us as u64 * 1000);
        params.harts = harts.map_or(params.harts, |m| m as u32);
        params.arrive_ns = arrive.map_or(params.arrive_ns, |ms| ms as u64 * 1_000_000);
        params.tickets = tickets.map_or(params.tickets, |t| t as u32);
        params.slice_ns = slice.map_or(params.slice_ns, |us| us as u64 * 1000);
        self.kernel.spawn(name, index, params, entry, full).map_err(|why| ArgError::Invalid("workload", why))
    }

    /// A new pipe of `capacity` bytes with `writers` writers for the workload's tasks.
    pub fn pipe(&mut self, capacity: u32, writers: u32) -> Result<usize, ArgError> {
        self.kernel.pipes.create(capacity, writers).ok_or(ArgError::Invalid("workload", "too many pipes (at most 32)"))
    }

    /// A new mutex for the workload's tasks (`mutex.rs`).
    pub fn mutex(&mut self) -> Result<usize, ArgError> {
        self.kernel.mutexes.create().ok_or(ArgError::Invalid("workload", "too many mutexes (at most 8)"))
    }
}

/// Per-task parameters, in spawn order (globals: every workload takes them).
pub const NICE: Tunable = Tunable {
    name: "nice",
    kind: Kind::List { min: -20, max: 19 },
    default: "0",
    unit: "",
    help: "nice of each task in creation order (e.g. 0,-5,5); tasks past the list keep the workload's. CFS, BVT and EEVDF weigh them",
};
pub const RTPRIO: Tunable = Tunable {
    name: "rtprio",
    kind: Kind::List { min: 0, max: 99 },
    default: "0",
    unit: "",
    help: "real-time priority of each task in creation order: 0 = fair class, 1..99 = SCHED_FIFO (or rtpolicy) above every fair task",
};
pub const RTPOLICY: Tunable = Tunable {
    name: "rtpolicy",
    kind: Kind::Choice(&["fifo", "rr"]),
    default: "fifo",
    unit: "",
    help: "the real-time policy of the tasks rtprio= puts in the real-time class",
};
pub const POLICY: Tunable = Tunable {
    name: "policy",
    kind: Kind::Choices(&["normal", "batch", "idle"]),
    default: "normal",
    unit: "",
    help: "fair-class policy of each task in creation order (CFS and EEVDF only): normal = SCHED_NORMAL; batch = SCHED_BATCH, its wakeups never preempt; idle = SCHED_IDLE, weight 3 whatever its nice, and any other fair task that wakes preempts it",
};
pub const WARP: Tunable = Tunable {
    name: "warp_us",
    kind: Kind::List { min: 0, max: 1_000_000 },
    default: "0",
    unit: "us",
    help: "BVT warp W of each task in creation order (virtual time it borrows when it wakes)",
};
pub const ARRIVE: Tunable = Tunable {
    name: "arrive_ms",
    kind: Kind::List { min: 0, max: 60_000 },
    default: "0",
    unit: "ms",
    help: "arrival time of each task in creation order, in ms after the workload starts (the policy first sees it then, as a new task); 0 = at the start",
};
pub const TICKETS: Tunable = Tunable {
    name: "tickets",
    kind: Kind::List { min: 1, max: 10_000 },
    default: "100",
    unit: "tickets",
    help: "lottery and stride tickets of each task in creation order; tasks past the list get 100 at nice 0, in proportion to CFS's weight of their nice otherwise",
};
pub const SLICE: Tunable = Tunable {
    name: "slice_us",
    kind: Kind::List { min: 0, max: 100_000 },
    default: "0",
    unit: "us",
    help: "the slice each task asks for in creation order (sched_setattr's sched_runtime): EEVDF from Linux 6.12 gives it this request, raised to 100 us if shorter; 0 = the base slice",
};
pub const AFFINITY: Tunable = Tunable {
    name: "affinity",
    kind: Kind::List { min: 0, max: 15 },
    default: "0",
    unit: "mask",
    help: "harts each task may run on, as taskset's bit mask (1 = hart 0, 2 = hart 1, 3 = both, ...); 0 = all",
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

/// Up to ten minutes: seed 004's busy loops ran about two before its author compared them.
pub const fn run_ms(default: &'static str) -> Tunable {
    Tunable { name: "wl.run_ms", kind: Kind::Int { min: 1, max: 600_000 }, default, unit: "ms", help: "how long the tasks keep working" }
}

/// A non-negative integer tunable as u64.
pub fn get(s: &Settings, name: &str) -> u64 {
    s.int(name).max(0) as u64
}
