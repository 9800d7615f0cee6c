//! Machine-mode traps. The ecall path is a few instructions of assembly (the ecall phase times
//! the round trip); interrupts save the caller-saved registers and go to Rust.

use crate::host;
use core::sync::atomic::{AtomicU64, Ordering};

/// Ecalls handled so far.
pub static ECALLS: AtomicU64 = AtomicU64::new(0);
/// Timer interrupts taken so far.
pub static TICKS: AtomicU64 = AtomicU64::new(0);
/// Ticks of mtime between timer interrupts; 0 disarms the timer after the next one.
pub static PERIOD: AtomicU64 = AtomicU64::new(0);

const MIE_MTIE: usize = 1 << 7;
const MSTATUS_MIE: usize = 1 << 3;
const MACHINE_TIMER: usize = 7;

core::arch::global_asm!(
    r#"
    .section .text
    .align 4
    .globl bench_trap
bench_trap:
    csrrw sp, mscratch, sp
    addi sp, sp, -128
    sd t0, 0(sp)
    sd t1, 8(sp)
    csrr t0, mcause
    bltz t0, 2f
    li t1, 11
    bne t0, t1, 3f
    csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
    la t0, {ecalls}
    ld t1, 0(t0)
    addi t1, t1, 1
    sd t1, 0(t0)
1:  ld t0, 0(sp)
    ld t1, 8(sp)
    addi sp, sp, 128
    csrrw sp, mscratch, sp
    mret
2:  .irp r, ra,t2,a0,a1,a2,a3,a4,a5,a6,a7,t3,t4,t5,t6
    addi sp, sp, -8
    sd \r, 0(sp)
    .endr
    call {interrupt}
    .irp r, t6,t5,t4,t3,a7,a6,a5,a4,a3,a2,a1,a0,t2,ra
    ld \r, 0(sp)
    addi sp, sp, 8
    .endr
    j 1b
3:  csrr a0, mcause
    csrr a1, mepc
    csrr a2, mtval
    call {fatal}
"#,
    ecalls = sym ECALLS,
    interrupt = sym on_interrupt,
    fatal = sym fatal,
);

extern "C" fn on_interrupt() {
    let cause: usize;
    unsafe { core::arch::asm!("csrr {}, mcause", out(reg) cause) };
    if cause & 0xff != MACHINE_TIMER {
        panic!("unexpected interrupt, mcause {cause:#x}");
    }
    TICKS.fetch_add(1, Ordering::Relaxed);
    match PERIOD.load(Ordering::Relaxed) {
        0 => host::set_mtimecmp(u64::MAX),
        period => host::set_mtimecmp(host::mtime() + period),
    }
}

extern "C" fn fatal(cause: usize, epc: usize, tval: usize) -> ! {
    panic!("unexpected exception: mcause {cause:#x} mepc {epc:#x} mtval {tval:#x}")
}

/// Starts timer interrupts every `period` (> 0) ticks.
pub fn start_periodic(period: u64) {
    PERIOD.store(period, Ordering::Relaxed);
    host::set_mtimecmp(host::mtime() + period);
    enable();
}

/// One timer interrupt `delay` ticks from now.
pub fn arm_once(delay: u64) {
    PERIOD.store(0, Ordering::Relaxed);
    host::set_mtimecmp(host::mtime() + delay);
    enable();
}

pub fn stop() {
    PERIOD.store(0, Ordering::Relaxed);
    host::set_mtimecmp(u64::MAX);
}

fn enable() {
    unsafe {
        core::arch::asm!("csrs mie, {}", in(reg) MIE_MTIE);
        core::arch::asm!("csrs mstatus, {}", in(reg) MSTATUS_MIE);
    }
}

pub fn ecall() {
    unsafe { core::arch::asm!("ecall") };
}
