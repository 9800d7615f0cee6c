//! What the kernel core and the lab policy's protection domain agree on (`docs/kernel.md`,
//! "The lab's protection domain"): where the domain's pages are, and the shared page each
//! call through the gate goes in and out by.
//!
//! The lab policy runs in U-mode with a page table of its own that maps only its code, its
//! data, its stack and this page (and the gate's own page, which U-mode cannot touch). The
//! core writes a call here, enters the domain, and reads the answer when the domain comes
//! back by `ecall`; a fault in the domain ends the call with the fault instead. Everything
//! the domain writes here is checked by the core before it is used.
#![no_std]

use runqueue_sched_api::{Carry, Class, Enqueue, FairPolicy, Task};

/// The domain's virtual addresses: its image (code, read-only data, data) from `BASE`, its
/// stack below `STACK_TOP` with unmapped pages beneath, and the shared page. All within one
/// 2 MiB region, so one last-level page table maps the domain.
pub const BASE: usize = 0x4000_0000;
pub const IMAGE_MAX: usize = 0x18_0000;
pub const STACK_TOP: usize = BASE + 0x1B_0000;
pub const STACK_SIZE: usize = 16 * 1024;
pub const SHARED: usize = BASE + 0x1F_0000;
pub const SHARED_SIZE: usize = 2 * 4096;

/// Instances of the lab policy the domain keeps: one per run queue.
pub const INSTANCES: usize = 4;
/// Fields a `describe` or `milestone` may write.
pub const MAX_FIELDS: usize = 16;
pub const TEXT: usize = 2048;

/// What the core asks (`Shared::op`).
#[repr(u64)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    Build = 1,
    Enqueue,
    PickNext,
    Charge,
    Tick,
    WakeupPreempts,
    Block,
    Exit,
    FairPolicies,
    Describe,
    Milestone,
    Detach,
    Attach,
}

impl Op {
    pub const ALL: [Op; 13] = [
        Op::Build,
        Op::Enqueue,
        Op::PickNext,
        Op::Charge,
        Op::Tick,
        Op::WakeupPreempts,
        Op::Block,
        Op::Exit,
        Op::FairPolicies,
        Op::Describe,
        Op::Milestone,
        Op::Detach,
        Op::Attach,
    ];

    pub fn from_u64(v: u64) -> Option<Op> {
        Op::ALL.into_iter().find(|op| *op as u64 == v)
    }
}

/// How the domain answered (`Shared::status`).
pub const DONE: u64 = 1;
/// The policy panicked: `text` holds the panic's message, as the kernel prints one.
pub const PANICKED: u64 = 2;
/// `build` refused the settings: `text` holds the tunable's name, a NUL, and why.
pub const INVALID: u64 = 3;
/// `Shared::result` for no task.
pub const NONE: u64 = u64::MAX;

/// A task as the policy sees it (`runqueue_sched_api::Task`), in a layout both sides fix.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct TaskAbi {
    pub tid: u64,
    pub nice: i64,
    /// 0 fair, 1 fifo, 2 rr, 3 deadline; `prio` for 1 and 2, the three figures for 3.
    pub class: u64,
    pub prio: u64,
    pub dl: [u64; 3],
    pub policy: u64,
    pub warp_ns: u64,
    pub tickets: u64,
    pub slice_ns: u64,
    pub allowed: u64,
    pub burst_ns: u64,
    pub stint_ns: u64,
    /// The hart it runs on, or `NONE`.
    pub hart: u64,
}

impl TaskAbi {
    pub fn from_task(t: &Task) -> TaskAbi {
        let (class, prio, dl) = match t.class {
            Class::Fair => (0, 0, [0; 3]),
            Class::Fifo(p) => (1, p as u64, [0; 3]),
            Class::Rr(p) => (2, p as u64, [0; 3]),
            Class::Deadline { runtime, deadline, period } => (3, 0, [runtime, deadline, period]),
        };
        let policy = FairPolicy::ALL.iter().position(|p| *p == t.policy).unwrap_or(0) as u64;
        TaskAbi {
            tid: t.tid as u64,
            nice: t.nice as i64,
            class,
            prio,
            dl,
            policy,
            warp_ns: t.warp_ns,
            tickets: t.tickets as u64,
            slice_ns: t.slice_ns,
            allowed: t.allowed as u64,
            burst_ns: t.burst_ns,
            stint_ns: t.stint_ns,
            hart: t.hart.map_or(NONE, |h| h as u64),
        }
    }

    /// The task again; the core wrote this, so every figure is in range.
    pub fn task(&self) -> Task {
        let class = match self.class {
            1 => Class::Fifo(self.prio as u8),
            2 => Class::Rr(self.prio as u8),
            3 => Class::Deadline { runtime: self.dl[0], deadline: self.dl[1], period: self.dl[2] },
            _ => Class::Fair,
        };
        Task {
            tid: self.tid as usize,
            nice: self.nice as i32,
            class,
            policy: FairPolicy::ALL[(self.policy as usize).min(FairPolicy::ALL.len() - 1)],
            warp_ns: self.warp_ns,
            tickets: self.tickets as u32,
            slice_ns: self.slice_ns,
            allowed: self.allowed as u32,
            burst_ns: self.burst_ns,
            stint_ns: self.stint_ns,
            hart: (self.hart != NONE).then_some(self.hart as usize),
        }
    }
}

pub fn enqueue_code(why: Enqueue) -> u64 {
    match why {
        Enqueue::New => 0,
        Enqueue::Wakeup => 1,
        Enqueue::Preempted => 2,
        Enqueue::Yielded => 3,
    }
}

pub fn enqueue_from(code: u64) -> Enqueue {
    match code {
        0 => Enqueue::New,
        1 => Enqueue::Wakeup,
        2 => Enqueue::Preempted,
        _ => Enqueue::Yielded,
    }
}

/// One ` name=value` field a policy wrote: up to 16 bytes of name (checked by the core).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Field {
    pub name: [u8; 16],
    pub len: u64,
    /// 0: unsigned `value`, 1: signed.
    pub signed: u64,
    pub value: u64,
}

/// The shared page: the call going in, the answer coming out.
#[repr(C)]
pub struct Shared {
    pub op: u64,
    /// The instance (run queue) the call is for; for `Build`, also the lab (index into the
    /// lab crate's `SPECS`) in `lab`.
    pub slot: u64,
    pub lab: u64,
    pub now: u64,
    pub hart: u64,
    /// `Enqueue`'s reason, `Charge`'s ns, `Describe`'s tid, `Detach`'s and `Attach`'s `queued`.
    pub arg: u64,
    /// `PickNext`: bit t set = task t may run on this hart.
    pub allowed: u64,
    pub task: TaskAbi,
    pub other: TaskAbi,
    pub carry: [i64; 6],
    pub status: u64,
    /// `PickNext`'s tid (or `NONE`), a yes/no as 1/0, `Detach`'s "took it" as 1/0.
    pub result: u64,
    pub fields: [Field; MAX_FIELDS],
    pub field_count: u64,
    /// `Build`: the run (`runqueue_sched_api::Run`): harts, tick period in ns, seed.
    pub harts: u64,
    pub tick_ns: u64,
    pub seed: u64,
    /// `Build`: the lab's own words of the command line going in, which the domain reads again
    /// against the lab's table; any call: the refusal or the panic's message coming out.
    pub text_len: u64,
    pub text: [u8; TEXT],
}

const _: () = assert!(core::mem::size_of::<Shared>() <= SHARED_SIZE);

impl Shared {
    pub fn carry(&self) -> Carry {
        Carry(self.carry)
    }

    /// The page's text, cut to what fits.
    pub fn text(&self) -> &[u8] {
        &self.text[..(self.text_len as usize).min(TEXT)]
    }
}
