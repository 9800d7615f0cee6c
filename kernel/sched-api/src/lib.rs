//! The scheduler API: the one trait every policy implements (after ArceOS's `BaseScheduler`:
//! add / pick / put_prev / tick), the read-only view of a task a policy gets, its tunables,
//! and the helpers a policy may use. It is all a policy can see of the kernel: the kernel's
//! own policies (`runqueue-policies`) and the students' lab files (`runqueue-lab`) depend on
//! this crate alone, so the compiler, not a convention, keeps them out of the core's task
//! table, accounting and trace.
//!
//! The reason for each enqueue is spelled out (a wakeup is not a yield: CFS and BVT place
//! them differently), and CPU time is handed to the policy by the core (`charge`), never
//! measured by the policy.
#![no_std]
#![forbid(unsafe_code)]
// Queues and buffers are built by `const fn new` for statics; a `Default` would add nothing.
#![allow(clippy::new_without_default)]

pub mod conformance;
mod line;
mod queue;
mod queue_view;
mod settings;

pub use line::{Fields, Line};
pub use queue::TidQueue;
pub use queue_view::{Pick, QueueView};
pub use settings::{Choice, Choices, Features, Fraction, Int, IntList, Invalid, Kind, List, MAX_LIST, Run, Setting, Settings, Text, Tunable, ms, tunables};

pub type Tid = usize;

/// Tids run from 1; slot 0 stands for a hart's idle loop and is never a task.
pub const MAX_TASKS: usize = 64;

/// cgroup v2 CPU groups a run may have (the root not counted). A group's entity in its
/// parent's queue has the id `MAX_TASKS + its index`, so a policy that holds groups
/// (`Scheduler::hierarchical`) keeps its per-entity state for ids up to `MAX_ENTITIES`.
pub const MAX_GROUPS: usize = 8;
pub const MAX_ENTITIES: usize = MAX_TASKS + MAX_GROUPS;

/// The scheduling class a task belongs to: deadline tasks run before real-time ones, which
/// run before fair ones (the policy `sched=` chooses).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Fair,
    /// SCHED_FIFO / SCHED_RR with a static priority 1 (low) ..= 99 (high).
    Fifo(u8),
    Rr(u8),
    /// SCHED_DEADLINE: runtime <= deadline <= period, in ns.
    Deadline {
        runtime: u64,
        deadline: u64,
        period: u64,
    },
}

impl Class {
    /// The name on `new` trace events.
    pub fn name(&self) -> &'static str {
        match self {
            Class::Fair => "fair",
            Class::Fifo(_) => "fifo",
            Class::Rr(_) => "rr",
            Class::Deadline { .. } => "dl",
        }
    }

    /// Larger runs first: deadline 2, real-time 1, fair 0.
    pub fn rank(&self) -> u8 {
        match self {
            Class::Fair => 0,
            Class::Fifo(_) | Class::Rr(_) => 1,
            Class::Deadline { .. } => 2,
        }
    }
}

/// The policy of a task in the fair class (sched(7)): SCHED_NORMAL (SCHED_OTHER), SCHED_BATCH,
/// whose wakeups never preempt, or SCHED_IDLE, which weighs 3 (`WEIGHT_IDLEPRIO`) whatever
/// its nice and gives way to any other fair task that wakes. Only the fair policies that
/// follow Linux (CFS, EEVDF) accept the last two (`policy=`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FairPolicy {
    Normal,
    Batch,
    Idle,
}

impl FairPolicy {
    /// In the order of the `policy=` list's names.
    pub const ALL: [FairPolicy; 3] = [FairPolicy::Normal, FairPolicy::Batch, FairPolicy::Idle];

    /// The name on `new` trace events and in `policy=`.
    pub fn name(&self) -> &'static str {
        match self {
            FairPolicy::Normal => "normal",
            FairPolicy::Batch => "batch",
            FairPolicy::Idle => "idle",
        }
    }
}

/// What a policy sees of a task: made by the core for each call, so a policy can read
/// these figures but can change nothing the core keeps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Task {
    pub tid: Tid,
    pub nice: i32,
    pub class: Class,
    /// Its fair-class policy (meaningful while `class` is `Fair`).
    pub policy: FairPolicy,
    /// BVT's warp W, in ns of virtual time (0: never warps).
    pub warp_ns: u64,
    /// Lottery and stride tickets (at least 1): `tickets=`, else derived from `nice`.
    pub tickets: u32,
    /// The request it asked for with `sched_setattr` (`sched_runtime`, the `slice_us=` list),
    /// in ns; 0: none, the policy's base slice. EEVDF from Linux 6.12 reads it.
    pub slice_ns: u64,
    /// Bit h set = may run on hart h.
    pub allowed: u32,
    /// The CPU burst its workload declared, as a batch job states its run time (0: none
    /// declared); SJF starts its prediction from it.
    pub burst_ns: u64,
    /// CPU time since it was last switched in, in ns (as of its last charge).
    pub stint_ns: u64,
    /// The hart it runs on, if it is running.
    pub hart: Option<usize>,
}

/// Why a task is (back) in the run queue.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Enqueue {
    New,
    Wakeup,
    /// Taken off the CPU by a tick or a wakeup.
    Preempted,
    /// Gave the CPU up itself and is still runnable.
    Yielded,
}

pub trait Scheduler {
    /// Puts a runnable task in the queue.
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64);
    /// Removes and returns the task `hart` should run next, among those `allowed` there.
    /// The core checks the answer: a task that is not runnable there stops the kernel.
    fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid>;
    /// `task` ran `ran_ns` more since its last charge (called before `tick`, `enqueue` of a
    /// preempted or yielding task, `block` and `exit`).
    fn charge(&mut self, _task: &Task, _ran_ns: u64, _now: u64) {}
    /// A timer tick while `current` runs; true asks for it to be preempted.
    fn tick(&mut self, current: &Task, now: u64) -> bool;
    /// Should `woken` (just enqueued) preempt `current`?
    fn wakeup_preempts(&self, _current: &Task, _woken: &Task) -> bool {
        false
    }
    /// `task` left the CPU to sleep or wait; it is in no queue until its wakeup.
    fn block(&mut self, _task: &Task, _now: u64) {}
    /// `task` has exited.
    fn exit(&mut self, _task: &Task) {}
    /// Whether it implements SCHED_BATCH and SCHED_IDLE (`Task::policy`); the kernel refuses
    /// a task with either policy under a scheduler that does not.
    fn fair_policies(&self) -> bool {
        false
    }
    /// The per-task state shown on `new`, `in` and `wake` trace events (e.g. ` vr=12 min=10`).
    fn describe(&self, _tid: Tid, _out: &mut Fields) {}
    /// The discrete state a `state` event reports when it changes (e.g. ` lvl=2`).
    fn milestone(&self, _tid: Tid, _out: &mut Fields) {}
    /// Takes `task` out of this hart's queue to move it to another hart's (`rq=perhart`): out of
    /// the queue if `queued`, and in any case returns the per-task figures it takes along.
    /// `None` (the default) says this policy cannot move tasks: they stay on the hart they were
    /// first placed on.
    fn detach(&mut self, _task: &Task, _queued: bool, _now: u64) -> Option<Carry> {
        None
    }
    /// Installs a task `detach`ed from another hart's instance of this policy, queued if it was.
    fn attach(&mut self, _task: &Task, _carry: Carry, _queued: bool, _now: u64) {}
    /// Whether this policy can queue group entities beside tasks (ids `MAX_TASKS..MAX_ENTITIES`,
    /// their weight set by `reweight`), as Linux's fair class queues a task group's
    /// `sched_entity` in its parent's `cfs_rq`. `false` (the default): tasks only, and a run
    /// with `cgroup=` is refused.
    fn hierarchical(&self) -> bool {
        false
    }
    /// Sets the weight of entity `id` (a group's entity, whose weight follows its group's
    /// load: Linux's `reweight_entity`), runnable or not.
    fn reweight(&mut self, _id: Tid, _weight: u64) {}
    /// Whether blocked task `tid` is still in this queue (EEVDF's DELAY_DEQUEUE keeps a task
    /// that blocks owing time queued): its wakeup then finds it where it is, and the core does
    /// not place it on another hart (Linux's `ttwu_runnable`).
    fn delayed(&self, _tid: Tid) -> bool {
        false
    }
    /// Whether a cgroup's warp (`bvt.group_warp_us`) applies to its group entity, and the tasks
    /// inside groups run unwarped (seed 002's BVT). `false` (the default): a run with group
    /// warps is refused.
    fn warps_groups(&self) -> bool {
        false
    }
    /// Tells an instance which queue of the group hierarchy it is (0: the root, `g + 1`: group
    /// `g`'s), once, after it is built for a run with `cgroup=`: a policy that draws at random
    /// gives each queue its own stream, so two queues never repeat each other's draws.
    fn queue_index(&mut self, _node: usize) {}
    /// Task `waiter` of this queue now waits for a mutex that `owner`, of the same queue, holds
    /// (`None`: its wait is over). A policy with ticket transfers (lottery's) lends the waiter's
    /// tickets to the owner meanwhile.
    fn lend(&mut self, _waiter: Tid, _owner: Option<Tid>) {}
}

/// What a task takes along when it moves to another hart's run queue, in the policy's own
/// units. With one run queue per hart each hart has its own instance of the policy, and a
/// task's figures live in the instance of the queue it was last on; Linux keeps them in the
/// task's `sched_entity` and renormalises them on the move (`migrate_task_rq_fair`: CFS's
/// vruntime relative to the old queue's `min_vruntime`, EEVDF's lag).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Carry(pub [i64; 6]);

/// A policy the command line can choose: its name, one-line help, tunables (its own table,
/// `tunables!`), how the book draws its queue, and its constructor, which reads the tunables
/// through the table's handles. Each policy file defines one for its own type; the crate that
/// holds it wraps `build`.
pub struct SchedSpec<P> {
    pub name: &'static str,
    pub help: &'static str,
    pub tunables: &'static [Tunable],
    pub queue: QueueView,
    pub build: fn(&Settings, &Run) -> Result<P, Invalid>,
}

/// What the command line, the catalog and the book need of a policy: its name, help, tunables
/// and queue view, without its code. The kernel core reads the lab slot's policies through these alone: their
/// code runs in the lab's protection domain (`runqueue-lab-abi`), never in the core.
#[derive(Clone, Copy)]
pub struct Described {
    pub name: &'static str,
    pub help: &'static str,
    pub tunables: &'static [Tunable],
    pub queue: QueueView,
}

impl<P> SchedSpec<P> {
    pub const fn described(&self) -> Described {
        Described { name: self.name, help: self.help, tunables: self.tunables, queue: self.queue }
    }
}

/// Declares the enum of the given policies, the erased accessors the kernel calls through,
/// and the table of their specs, each building its own type wrapped in the enum.
/// `runqueue-policies` and `runqueue-lab` each declare theirs with it.
#[macro_export]
macro_rules! policy_table {
    ($(#[$meta:meta])* $enum:ident, $table:ident: $($variant:ident($module:ident::$ty:ident)),+ $(,)?) => {
        $(#[$meta])*
        // One instance lives inside the kernel lock and there is no heap to box the big
        // variants in.
        #[allow(clippy::large_enum_variant)]
        pub enum $enum {
            $($variant($module::$ty),)+
        }

        impl $enum {
            pub fn get(&mut self) -> &mut dyn $crate::Scheduler {
                match self {
                    $($enum::$variant(p) => p,)+
                }
            }

            pub fn view(&self) -> &dyn $crate::Scheduler {
                match self {
                    $($enum::$variant(p) => p,)+
                }
            }
        }

        pub const $table: &[$crate::SchedSpec<$enum>] = &[
            $($crate::SchedSpec {
                name: $module::SPEC.name,
                help: $module::SPEC.help,
                tunables: $module::SPEC.tunables,
                queue: $module::SPEC.queue,
                build: |s, run| ($module::SPEC.build)(s, run).map($enum::$variant),
            },)+
        ];
    };
}
