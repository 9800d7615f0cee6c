//! Tasks: kernel threads with their own stacks. The task table lives inside the kernel lock
//! (`dispatch`); contexts and stacks (`stack`) live outside it, owned by whichever hart is
//! switching the task, because they must stay reachable across a context switch.

use crate::arch::Context;
use core::cell::UnsafeCell;

pub use runqueue_sched_api::{Class, FairPolicy, MAX_TASKS, Tid};

const NAME_CAP: usize = 16;

/// What a workload task runs: an entry point and its arguments.
pub type Args = [u64; 6];
pub type Entry = fn(Args);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum State {
    Free,
    Runnable,
    Running(usize),
    /// Asleep until this time (ns); `hart` is where it fell asleep (whose timer wakes it).
    Sleeping {
        until: u64,
        hart: usize,
    },
    /// Waiting for another task (a pipe); only `Kernel::wake_waiter` makes it runnable.
    Blocked,
    Exited,
}

/// Per-task scheduling parameters from the workload and the command line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Params {
    pub nice: i32,
    pub class: Class,
    pub policy: FairPolicy,
    /// BVT's warp W, in ns of virtual time (0: never warps).
    pub warp_ns: u64,
    /// Lottery and stride tickets; 0: derived from `nice` (`runqueue_policies::lottery::tickets_for_nice`).
    pub tickets: u32,
    /// Its own request (`sched_runtime`), in ns; 0: the policy's base slice.
    pub slice_ns: u64,
    /// Harts it may run on (bit h = hart h); 0: all of them.
    pub harts: u32,
    /// When it arrives, in ns after the workload starts (0: at once).
    pub arrive_ns: u64,
    /// The CPU burst the workload declares for it (0: none).
    pub burst_ns: u64,
}

impl Params {
    pub const FAIR: Params = Params { nice: 0, class: Class::Fair, policy: FairPolicy::Normal, warp_ns: 0, tickets: 0, slice_ns: 0, harts: 0, arrive_ns: 0, burst_ns: 0 };
}

/// A task as the core sees it. Policies get its `view`: a copy of what they may read, so a
/// policy cannot change the figures it is judged by.
pub struct Task {
    pub tid: Tid,
    name: [u8; NAME_CAP],
    name_len: usize,
    pub nice: i32,
    /// The class it runs in now: its own (`base`), or one it inherited while holding a mutex a
    /// higher-priority task waits for (`mutex.rs`; Linux's `prio` against `normal_prio`).
    pub class: Class,
    pub base: Class,
    /// SCHED_NORMAL, SCHED_BATCH or SCHED_IDLE, for the fair class.
    pub policy: FairPolicy,
    pub warp_ns: u64,
    /// Lottery and stride tickets (at least 1).
    pub tickets: u32,
    pub slice_ns: u64,
    /// A waker found this task still on its way to blocking: its block ends at once.
    pub wake_pending: bool,
    /// Created, but not there yet: it sleeps until its arrival time (`Params::arrive_ns`),
    /// and only then does the policy (and the trace) see it as new.
    pub arriving: bool,
    /// Bit h set = may run on hart h.
    pub allowed: u32,
    pub burst_ns: u64,
    /// When it arrived and when it first ran (absolute ns; 0: not yet), for its response
    /// and turnaround times.
    pub arrived_at: u64,
    pub first_run_at: u64,
    /// The hart whose run queue holds it, or held it last (`rq=perhart`; with one shared
    /// queue, the hart it last ran on).
    pub queue: usize,
    /// When it last left a hart (0: never ran): a task that ran within
    /// `sched_migration_cost_ns` is cache-hot, and balancing leaves it where it is.
    pub last_ran: u64,
    pub state: State,
    pub entry: Entry,
    pub args: Args,
    /// CPU time in total and in the current stint (since last switched in), in ns.
    pub cpu_ns: u64,
    pub stint_ns: u64,
    /// Time spent runnable but not running, in ns.
    pub wait_ns: u64,
    pub switches: u64,
    pub iterations: u64,
    /// When the task exited (absolute ns; 0 while it lives).
    pub exit_ns: u64,
    pub runnable_since: u64,
    pub switched_in_at: u64,
    pub charged_at: u64,
}

fn never(_: Args) {}

impl Task {
    pub const FREE: Task = Task {
        tid: 0,
        name: [0; NAME_CAP],
        name_len: 0,
        nice: 0,
        class: Class::Fair,
        base: Class::Fair,
        policy: FairPolicy::Normal,
        warp_ns: 0,
        tickets: 1,
        slice_ns: 0,
        wake_pending: false,
        arriving: false,
        allowed: 0,
        burst_ns: 0,
        arrived_at: 0,
        first_run_at: 0,
        queue: 0,
        last_ran: 0,
        state: State::Free,
        entry: never,
        args: [0; 6],
        cpu_ns: 0,
        stint_ns: 0,
        wait_ns: 0,
        switches: 0,
        iterations: 0,
        exit_ns: 0,
        runnable_since: 0,
        switched_in_at: 0,
        charged_at: 0,
    };

    /// A runnable task, created at `now`.
    pub fn new(tid: Tid, params: Params, allowed: u32, entry: Entry, args: Args, now: u64) -> Task {
        let Params { nice, class, policy, warp_ns, tickets, slice_ns, burst_ns, .. } = params;
        let tickets = if tickets == 0 { runqueue_policies::lottery::tickets_for_nice(nice) } else { tickets };
        Task { tid, nice, class, base: class, policy, warp_ns, tickets, slice_ns, allowed, burst_ns, state: State::Runnable, entry, args, runnable_since: now, ..Task::FREE }
    }

    /// What a policy may see of this task (`runqueue_sched_api::Task`).
    pub fn view(&self) -> runqueue_sched_api::Task {
        let hart = match self.state {
            State::Running(h) => Some(h),
            _ => None,
        };
        let Task { tid, nice, class, policy, warp_ns, tickets, slice_ns, allowed, burst_ns, stint_ns, .. } = *self;
        runqueue_sched_api::Task { tid, nice, class, policy, warp_ns, tickets, slice_ns, allowed, burst_ns, stint_ns, hart }
    }

    pub fn name(&self) -> &str {
        core::str::from_utf8(&self.name[..self.name_len]).unwrap_or("?")
    }

    /// Names are `base` followed by `index` (e.g. `spin3`), cut to fit.
    pub fn set_name(&mut self, base: &str, index: Option<usize>) {
        let mut line = runqueue_sched_api::Line::new();
        line.push(base);
        if let Some(i) = index {
            line.num(i as u64);
        }
        let bytes = line.as_bytes();
        self.name_len = bytes.len().min(NAME_CAP);
        self.name[..self.name_len].copy_from_slice(&bytes[..self.name_len]);
    }
}

/// Saved registers of every task slot (their stacks are in `stack`).
pub struct Contexts([UnsafeCell<Context>; MAX_TASKS]);

// Safety: a slot's context is only touched by the hart that is switching that task in or out
// (or creating it before any hart runs it); the state machine in `dispatch` hands a task to
// one hart at a time.
unsafe impl Sync for Contexts {}

static CONTEXTS: Contexts = Contexts([const { UnsafeCell::new(Context::ZERO) }; MAX_TASKS]);

pub fn context(tid: Tid) -> *mut Context {
    CONTEXTS.0[tid].get()
}

/// Prepares `tid`'s context so the first switch to it starts `trampoline` on a fresh stack.
pub fn prepare(tid: Tid, trampoline: extern "C" fn() -> !) {
    let ctx = Context { ra: trampoline as *const () as usize, sp: crate::stack::task_top(tid), s: [0; 12] };
    unsafe { context(tid).write(ctx) };
}
