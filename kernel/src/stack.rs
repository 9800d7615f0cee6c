//! The kernel's stacks and their guard. Policy code runs on whichever stack calls into it (a
//! hart's scheduler loop, or a task's stack in a timer interrupt or a wakeup), so a policy
//! with deep recursion or a large local overruns that stack. Nothing in the hardware catches
//! it (paging is off), so the kernel makes it visible:
//! - every stack lies below the kernel's code and data (`link.ld`): an overflow tramples
//!   only other stacks on its way down, and a trap with sp below them all is reported
//!   (`trap_entry`);
//! - the lowest word of each stack holds a canary, checked at every trap and every switch:
//!   an overflow that returned is reported at the next one.

use crate::hart::{HART_STACK_SIZE, MAX_HARTS};
use crate::task::{MAX_TASKS, Tid};
use crate::{power, println};
use core::fmt::Arguments;

pub const TASK_STACK_SIZE: usize = 16 * 1024;
pub const EMERGENCY_STACK_SHIFT: usize = 12;
const EMERGENCY_STACK_SIZE: usize = 1 << EMERGENCY_STACK_SHIFT;
const CANARY: u64 = u64::from_le_bytes(*b"stack ok");

#[repr(C, align(16))]
pub struct Stacks<const N: usize, const SIZE: usize>([[u8; SIZE]; N]);

/// Boot stacks, one per hart; hart `i` uses `HART_STACKS[i]` for boot and its scheduler loop.
#[unsafe(link_section = ".stacks")]
pub static mut HART_STACKS: Stacks<MAX_HARTS, HART_STACK_SIZE> = Stacks([[0; HART_STACK_SIZE]; MAX_HARTS]);

/// One stack per task slot.
#[unsafe(link_section = ".stacks")]
static mut TASK_STACKS: Stacks<MAX_TASKS, TASK_STACK_SIZE> = Stacks([[0; TASK_STACK_SIZE]; MAX_TASKS]);

/// Where a hart reports an overflow from: its own stack is gone by then.
pub static mut EMERGENCY_STACKS: Stacks<MAX_HARTS, EMERGENCY_STACK_SIZE> = Stacks([[0; EMERGENCY_STACK_SIZE]; MAX_HARTS]);

fn task_bottom(tid: Tid) -> *mut u64 {
    unsafe { (&raw mut TASK_STACKS.0[tid]).cast() }
}

fn hart_bottom(hart: usize) -> *mut u64 {
    unsafe { (&raw mut HART_STACKS.0[hart]).cast() }
}

/// The initial stack pointer of `tid`'s stack.
pub fn task_top(tid: Tid) -> usize {
    (task_bottom(tid) as usize + TASK_STACK_SIZE) & !15
}

/// Writes every canary. Hart 0 calls it at boot, before any other hart or task runs.
pub fn arm() {
    for hart in 0..MAX_HARTS {
        unsafe { hart_bottom(hart).write_volatile(CANARY) };
    }
    for tid in 1..MAX_TASKS {
        unsafe { task_bottom(tid).write_volatile(CANARY) };
    }
}

/// Stops the kernel if this hart's stack or task `tid`'s (0: none) lost its canary.
pub fn check(tid: Tid) {
    let hart = crate::arch::hart_index();
    if unsafe { hart_bottom(hart).read_volatile() } != CANARY {
        overflowed(format_args!("hart {hart}'s stack ({} KiB) was overrun", HART_STACK_SIZE >> 10));
    }
    if tid != 0 && unsafe { task_bottom(tid).read_volatile() } != CANARY {
        overflowed(format_args!("task {tid}'s stack ({} KiB) was overrun", TASK_STACK_SIZE >> 10));
    }
}

pub fn overflowed(what: Arguments) -> ! {
    println!("kernel panic: stack overflow: {what}.");
    println!("the scheduler policy runs on the stack of the task or hart that calls it: unbounded recursion or a large local variable in the policy?");
    power::exit(power::Exit::Fault)
}
