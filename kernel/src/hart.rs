//! Per-hart state. Each hart reaches its own slot through `tp` (its logical index); the
//! fields other harts read or write are atomics, the rest only ever change on their own hart.

use crate::arch::{self, Context};
use core::cell::{Cell, UnsafeCell};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use runqueue_sched_api::Line;

pub const MAX_HARTS: usize = 4;
pub const HART_STACK_SHIFT: usize = 16;
pub const HART_STACK_SIZE: usize = 1 << HART_STACK_SHIFT;

/// Why the running task handed its hart back to the scheduler loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Leave {
    Preempted,
    Yielded,
    /// Sleeping until this time (ns).
    Sleep(u64),
    /// Waiting for another task to wake it (`dispatch::block`).
    Block,
    Exit,
}

pub struct Hart {
    /// The scheduler loop's own context; tasks switch back to it.
    pub sched_ctx: UnsafeCell<Context>,
    /// Nesting depth of `push_off`, and whether interrupts were on before the first one.
    pub noff: Cell<u32>,
    pub intena: Cell<bool>,
    /// The task running on this hart (0: the scheduler loop / idle).
    pub running: Cell<usize>,
    /// Set by the running task just before it switches back to the scheduler loop.
    pub leave: Cell<Leave>,
    /// The next periodic tick, in ns.
    pub next_tick_ns: Cell<u64>,
    /// Inside `nopreempt`: preemption waits; `deferred` remembers that one was asked for.
    pub no_preempt: Cell<bool>,
    pub deferred: Cell<bool>,
    /// Ticks taken while preemption was off (reported by `nopreempt`).
    pub ticks_held: Cell<u64>,
    /// Another hart (or a wakeup on this one) wants the current task to be preempted.
    pub need_resched: AtomicBool,
    /// Another hart wants this one to re-arm its timer (`hart::rearm`).
    pub rearm: AtomicBool,
    /// The firmware's id for this hart (SBI calls take it).
    pub hart_id: AtomicUsize,
    /// Trace lines are formatted here, then handed over whole.
    pub trace_line: UnsafeCell<Line>,
}

unsafe impl Sync for Hart {}

impl Hart {
    const fn new() -> Hart {
        Hart {
            sched_ctx: UnsafeCell::new(Context::ZERO),
            noff: Cell::new(0),
            intena: Cell::new(false),
            running: Cell::new(0),
            leave: Cell::new(Leave::Yielded),
            next_tick_ns: Cell::new(0),
            no_preempt: Cell::new(false),
            deferred: Cell::new(false),
            ticks_held: Cell::new(0),
            need_resched: AtomicBool::new(false),
            rearm: AtomicBool::new(false),
            hart_id: AtomicUsize::new(0),
            trace_line: UnsafeCell::new(Line::new()),
        }
    }
}

static HARTS: [Hart; MAX_HARTS] = [const { Hart::new() }; MAX_HARTS];

/// This hart's slot.
pub fn this() -> &'static Hart {
    &HARTS[arch::hart_index()]
}

pub fn get(index: usize) -> &'static Hart {
    &HARTS[index]
}

/// Masks interrupts, counting nesting so the outermost `pop_off` restores the old state.
pub fn push_off() {
    let was_on = arch::intr_enabled();
    arch::intr_off();
    let h = this();
    if h.noff.get() == 0 {
        h.intena.set(was_on);
    }
    h.noff.set(h.noff.get() + 1);
}

pub fn pop_off() {
    let h = this();
    let n = h.noff.get() - 1;
    h.noff.set(n);
    if n == 0 && h.intena.get() {
        arch::intr_on();
    }
}

/// Asks hart `index` (another hart) to re-arm its timer: its tick must restart, or a sleep
/// timer now fires there.
pub fn rearm(index: usize) {
    let h = get(index);
    h.rearm.store(true, Ordering::Release);
    crate::sbi::send_ipi(h.hart_id.load(Ordering::Relaxed));
}

/// Asks hart `index` to reschedule, with an IPI when it is another hart.
pub fn kick(index: usize) {
    let h = get(index);
    h.need_resched.store(true, Ordering::Release);
    if index != arch::hart_index() {
        crate::sbi::send_ipi(h.hart_id.load(Ordering::Relaxed));
    }
}
