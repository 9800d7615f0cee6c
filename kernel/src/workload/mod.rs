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

use runqueue_settings::{ArgError, Choice, Choices, Entry, Int, IntList, Kind, List, Setting, Settings, Tunable, tunables};
use crate::dispatch::Kernel;
use crate::task::{Args, Class, Entry as TaskEntry, FairPolicy, MAX_TASKS, Params, Tid};

pub struct WorkloadSpec {
    pub name: &'static str,
    pub help: &'static str,
    pub tunables: &'static [Tunable],
    pub spawn: fn(&Settings<'static>, &mut Spawner) -> Result<(), ArgError<'static>>,
}

impl WorkloadSpec {
    /// The workload `workload=` chose (`Settings::parse` found it among `WORKLOADS`).
    pub fn chosen(s: &Settings) -> &'static WorkloadSpec {
        let name = s.workload().map_or("", |e| e.name);
        WORKLOADS.iter().find(|w| w.name == name).expect("the parser chose a workload of the catalog")
    }

    /// Its name, help and tunables, as the catalog lists them.
    pub fn entry(&self) -> Entry {
        Entry { name: self.name, help: self.help, tunables: self.tunables }
    }
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

/// Plans a workload's tasks (`plan` hands them over, `Plan::create` creates them when the
/// workload starts). The n-th task
/// gets the n-th value of each per-task list on the command line (`nice=`, `rtprio=`,
/// `warp_us=`, `affinity=`, `arrive_ms=`, `tickets=`, `slice_us=`, `policy=`) over the
/// parameters the workload chose for it.
pub struct Spawner<'a> {
    kernel: &'a mut Kernel,
    lists: [IntList; 8],
    rr: bool,
    plan: Plan,
    spawned: usize,
}

/// The tasks a workload asked for, in order.
pub struct Plan([Option<Planned>; MAX_TASKS]);

/// A task a workload asked for.
#[derive(Clone, Copy)]
struct Planned {
    name: &'static str,
    index: Option<usize>,
    params: Params,
    entry: TaskEntry,
    args: Args,
}

impl<'a> Spawner<'a> {
    pub fn new(kernel: &'a mut Kernel, settings: &Settings) -> Spawner<'a> {
        let given = |setting: &Setting<List>| {
            if settings.is_given(setting) { settings.get(setting) } else { IntList::EMPTY }
        };
        let policy = if settings.is_given(&POLICY) { settings.get(&POLICY) } else { IntList::EMPTY };
        let lists = [given(&NICE), given(&RTPRIO), given(&WARP), given(&AFFINITY), given(&ARRIVE), given(&TICKETS), given(&SLICE), policy];
        Spawner { kernel, lists, rr: settings.get(&RTPOLICY), plan: Plan([None; MAX_TASKS]), spawned: 0 }
    }

    /// Plans a fair task running `entry` with `args` (zero-filled to the full array).
    pub fn spawn(&mut self, name: &'static str, index: Option<usize>, entry: TaskEntry, args: &[u64]) -> Result<(), ArgError<'static>> {
        self.spawn_with(Params::FAIR, name, index, entry, args).map(|_| ())
    }

    /// Plans a task with the workload's `params`, overridden by the command line's lists; the
    /// tid it will have.
    pub fn spawn_with(&mut self, mut params: Params, name: &'static str, index: Option<usize>, entry: TaskEntry, args: &[u64]) -> Result<Tid, ArgError<'static>> {
        let mut full: Args = [0; 6];
        full[..args.len()].copy_from_slice(args);
        let n = self.spawned;
        let tid = self.kernel.count + 1 + n;
        if tid >= MAX_TASKS {
            return Err(ArgError::Invalid("workload", "too many tasks for the task table (at most 63)"));
        }
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
        self.plan.0[n] = Some(Planned { name, index, params, entry, args: full });
        Ok(tid)
    }

    /// The tasks planned.
    pub fn plan(self) -> Plan {
        self.plan
    }

    /// A new pipe of `capacity` bytes with `writers` writers for the workload's tasks.
    pub fn pipe(&mut self, capacity: u32, writers: u32) -> Result<usize, ArgError<'static>> {
        self.kernel.pipes.create(capacity, writers).ok_or(ArgError::Invalid("workload", "too many pipes (at most 32)"))
    }

    /// A new mutex for the workload's tasks (`mutex.rs`).
    pub fn mutex(&mut self) -> Result<usize, ArgError<'static>> {
        self.kernel.mutexes.create().ok_or(ArgError::Invalid("workload", "too many mutexes (at most 8)"))
    }
}

impl Plan {
    /// Creates the planned tasks, in order.
    pub fn create(&self, kernel: &mut Kernel) -> Result<(), ArgError<'static>> {
        for p in self.0.iter().flatten() {
            kernel.spawn(p.name, p.index, p.params, p.entry, p.args).map_err(|why| ArgError::Invalid("workload", why))?;
        }
        Ok(())
    }
}

tunables! {
    /// Per-task parameters, in spawn order (globals: every workload takes them).
    pub const PER_TASK;
    NICE: List = Setting::list(Tunable {
        name: "nice",
        kind: Kind::List { min: -20, max: 19 },
        default: "0",
        unit: "",
        help: "nice of each task in creation order (e.g. 0,-5,5); tasks past the list keep the workload's. CFS, BVT and EEVDF weigh them",
    });
    RTPRIO: List = Setting::list(Tunable {
        name: "rtprio",
        kind: Kind::List { min: 0, max: 99 },
        default: "0",
        unit: "",
        help: "real-time priority of each task in creation order: 0 = fair class, 1..99 = SCHED_FIFO (or rtpolicy) above every fair task",
    });
    /// `true`: SCHED_RR.
    RTPOLICY: Choice<bool> = Setting::choice(Tunable {
        name: "rtpolicy",
        kind: Kind::Choice(&["fifo", "rr"]),
        default: "fifo",
        unit: "",
        help: "the real-time policy of the tasks rtprio= puts in the real-time class",
    }, &[false, true]);
    POLICY: Choices = Setting::choices(Tunable {
        name: "policy",
        kind: Kind::Choices(&["normal", "batch", "idle"]),
        default: "normal",
        unit: "",
        help: "fair-class policy of each task in creation order (CFS and EEVDF only): normal = SCHED_NORMAL; batch = SCHED_BATCH, its wakeups never preempt; idle = SCHED_IDLE, weight 3 whatever its nice, and any other fair task that wakes preempts it",
    });
    WARP: List = Setting::list(Tunable {
        name: "warp_us",
        kind: Kind::List { min: 0, max: 1_000_000 },
        default: "0",
        unit: "us",
        help: "BVT warp W of each task in creation order (virtual time it borrows when it wakes)",
    });
    AFFINITY: List = Setting::list(Tunable {
        name: "affinity",
        kind: Kind::List { min: 0, max: 15 },
        default: "0",
        unit: "mask",
        help: "harts each task may run on, as taskset's bit mask (1 = hart 0, 2 = hart 1, 3 = both, ...); 0 = all",
    });
    ARRIVE: List = Setting::list(Tunable {
        name: "arrive_ms",
        kind: Kind::List { min: 0, max: 60_000 },
        default: "0",
        unit: "ms",
        help: "arrival time of each task in creation order, in ms after the workload starts (the policy first sees it then, as a new task); 0 = at the start",
    });
    TICKETS: List = Setting::list(Tunable {
        name: "tickets",
        kind: Kind::List { min: 1, max: 10_000 },
        default: "100",
        unit: "tickets",
        help: "lottery and stride tickets of each task in creation order; tasks past the list get 100 at nice 0, in proportion to CFS's weight of their nice otherwise",
    });
    SLICE: List = Setting::list(Tunable {
        name: "slice_us",
        kind: Kind::List { min: 0, max: 100_000 },
        default: "0",
        unit: "us",
        help: "the slice each task asks for in creation order (sched_setattr's sched_runtime): EEVDF from Linux 6.12 gives it this request, raised to 100 us if shorter; 0 = the base slice",
    });
}

// Tunables several workloads take, each with its own default (and help).

pub const fn tasks(default: &'static str) -> Setting<Int> {
    Setting::int(Tunable { name: "wl.tasks", kind: Kind::Int { min: 1, max: 32 }, default, unit: "tasks", help: "number of tasks" })
}

pub const fn units(default: &'static str, help: &'static str) -> Setting<Int> {
    Setting::int(Tunable { name: "wl.units", kind: Kind::Int { min: 1, max: 10_000_000 }, default, unit: "units", help })
}

pub const fn unit_insns(default: &'static str, help: &'static str) -> Setting<Int> {
    Setting::int(Tunable { name: "wl.unit_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default, unit: "instructions", help })
}

/// Up to ten minutes: seed 004's busy loops ran about two before its author compared them.
pub const fn run_ms(default: &'static str) -> Setting<Int> {
    Setting::int(Tunable { name: "wl.run_ms", kind: Kind::Int { min: 1, max: 600_000 }, default, unit: "ms", help: "how long the tasks keep working" })
}

/// A non-negative integer tunable as u64.
pub fn get(s: &Settings, setting: &Setting<Int>) -> u64 {
    s.get(setting).max(0) as u64
}

/// Harts that run tasks (`smp=`).
pub fn harts(s: &Settings) -> usize {
    s.get(&runqueue_machine_settings::SMP) as usize
}
