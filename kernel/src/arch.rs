//! The few things only assembly can do: the entry points, the trap vector and the context
//! switch, plus thin wrappers over the CSRs the kernel touches.

use crate::hart::{HART_STACK_SHIFT, HART_STACK_SIZE};
use crate::stack::{EMERGENCY_STACK_SHIFT, EMERGENCY_STACKS, HART_STACKS};
use core::arch::{asm, global_asm};

// `_start`: the boot hart, a0 = hart id, a1 = FDT. Zero .bss, take stack 0, call `kmain`.
// `secondary_start`: a hart started by SBI HSM, a0 = hart id, a1 = its logical index.
global_asm!(
    r#"
    .section .text.entry
    .globl _start
_start:
    csrw sie, zero
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 1b
2:  li tp, 0
    la sp, {stacks}
    li t0, {size}
    add sp, sp, t0
    call {kmain}
3:  wfi
    j 3b

    .text
    .globl secondary_start
    .align 2
secondary_start:
    csrw sie, zero
    mv tp, a1
    la sp, {stacks}
    addi t0, a1, 1
    slli t0, t0, {shift}
    add sp, sp, t0
    call {secondary}
4:  wfi
    j 4b
"#,
    stacks = sym HART_STACKS,
    size = const HART_STACK_SIZE,
    shift = const HART_STACK_SHIFT,
    kmain = sym crate::kmain,
    secondary = sym crate::secondary_main,
);

/// Callee-saved registers: all a cooperative switch has to keep (the caller saved the rest).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Context {
    pub ra: usize,
    pub sp: usize,
    pub s: [usize; 12],
}

impl Context {
    pub const ZERO: Context = Context { ra: 0, sp: 0, s: [0; 12] };
}

// swtch(old, new): save the callee-saved registers into *old, load *new, return into new's ra.
global_asm!(
    r#"
    .text
    .globl swtch
    .align 2
swtch:
    sd ra, 0(a0)
    sd sp, 8(a0)
    sd s0, 16(a0)
    sd s1, 24(a0)
    sd s2, 32(a0)
    sd s3, 40(a0)
    sd s4, 48(a0)
    sd s5, 56(a0)
    sd s6, 64(a0)
    sd s7, 72(a0)
    sd s8, 80(a0)
    sd s9, 88(a0)
    sd s10, 96(a0)
    sd s11, 104(a0)
    ld ra, 0(a1)
    ld sp, 8(a1)
    ld s0, 16(a1)
    ld s1, 24(a1)
    ld s2, 32(a1)
    ld s3, 40(a1)
    ld s4, 48(a1)
    ld s5, 56(a1)
    ld s6, 64(a1)
    ld s7, 72(a1)
    ld s8, 80(a1)
    ld s9, 88(a1)
    ld s10, 96(a1)
    ld s11, 104(a1)
    ret
"#
);

unsafe extern "C" {
    pub fn swtch(old: *mut Context, new: *const Context);
    fn trap_entry();
    pub fn secondary_start();
}

// The trap vector. Traps only come from S-mode (kernel threads), so the frame goes on the
// current stack. sepc and sstatus are saved too: the handler may switch to another task,
// whose own traps overwrite those CSRs before this one resumes. A trap with sp below every
// stack is a stack that overflowed (the fault of its first store below RAM, or any trap
// while it is down there): it is reported from the hart's emergency stack.
global_asm!(
    r#"
    .text
    .globl trap_entry
    .align 2
trap_entry:
    csrw sscratch, t0
    la t0, __stacks_start
    bltu sp, t0, 1f
    csrr t0, sscratch
    addi sp, sp, -144
    sd ra, 0(sp)
    sd t0, 8(sp)
    sd t1, 16(sp)
    sd t2, 24(sp)
    sd t3, 32(sp)
    sd t4, 40(sp)
    sd t5, 48(sp)
    sd t6, 56(sp)
    sd a0, 64(sp)
    sd a1, 72(sp)
    sd a2, 80(sp)
    sd a3, 88(sp)
    sd a4, 96(sp)
    sd a5, 104(sp)
    sd a6, 112(sp)
    sd a7, 120(sp)
    csrr t0, sepc
    sd t0, 128(sp)
    csrr t0, sstatus
    sd t0, 136(sp)
    call {handler}
    ld t0, 128(sp)
    csrw sepc, t0
    ld t0, 136(sp)
    csrw sstatus, t0
    ld ra, 0(sp)
    ld t0, 8(sp)
    ld t1, 16(sp)
    ld t2, 24(sp)
    ld t3, 32(sp)
    ld t4, 40(sp)
    ld t5, 48(sp)
    ld t6, 56(sp)
    ld a0, 64(sp)
    ld a1, 72(sp)
    ld a2, 80(sp)
    ld a3, 88(sp)
    ld a4, 96(sp)
    ld a5, 104(sp)
    ld a6, 112(sp)
    ld a7, 120(sp)
    addi sp, sp, 144
    sret
1:  la sp, {emergency}
    addi t0, tp, 1
    slli t0, t0, {emergency_shift}
    add sp, sp, t0
    call {overflow}
"#,
    handler = sym crate::trap::handle,
    emergency = sym EMERGENCY_STACKS,
    emergency_shift = const EMERGENCY_STACK_SHIFT,
    overflow = sym crate::trap::stack_overflow,
);

const SSTATUS_SIE: usize = 1 << 1;
/// sie/sip bits: supervisor software (IPI) and timer interrupts.
pub const SSIP: usize = 1 << 1;
pub const STIP: usize = 1 << 5;

/// Points this hart's traps at `trap_entry` and enables timer and software interrupts
/// (they are still masked by sstatus.SIE until `intr_on`).
pub fn init_traps() {
    unsafe {
        asm!("csrw stvec, {}", in(reg) trap_entry as *const () as usize);
        asm!("csrs sie, {}", in(reg) SSIP | STIP);
    }
}

pub fn intr_on() {
    unsafe { asm!("csrs sstatus, {}", in(reg) SSTATUS_SIE) }
}

pub fn intr_off() {
    unsafe { asm!("csrc sstatus, {}", in(reg) SSTATUS_SIE) }
}

pub fn intr_enabled() -> bool {
    let s: usize;
    unsafe { asm!("csrr {}, sstatus", out(reg) s) };
    s & SSTATUS_SIE != 0
}

pub fn clear_soft_interrupt() {
    unsafe { asm!("csrc sip, {}", in(reg) SSIP) }
}

/// (scause, sepc, stval) of the trap being handled.
pub fn trap_cause() -> (usize, usize, usize) {
    let (c, e, v): (usize, usize, usize);
    unsafe { asm!("csrr {}, scause", "csrr {}, sepc", "csrr {}, stval", out(reg) c, out(reg) e, out(reg) v) };
    (c, e, v)
}

/// The logical index of this hart (kept in `tp` from entry on).
pub fn hart_index() -> usize {
    let tp: usize;
    unsafe { asm!("mv {}, tp", out(reg) tp) };
    tp
}

/// The `time` CSR: 10 MHz ticks (`docs/platform.md`).
pub fn rdtime() -> u64 {
    let t: u64;
    unsafe { asm!("rdtime {}", out(reg) t) };
    t
}

pub fn wait_for_interrupt() {
    unsafe { asm!("wfi") }
}

/// Nanoseconds per `time` tick: the timebase is 10 MHz on both machines.
pub const NS_PER_TICK: u64 = 100;

/// Now, in nanoseconds since the machine started.
pub fn now_ns() -> u64 {
    rdtime() * NS_PER_TICK
}
