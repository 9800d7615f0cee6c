//! Supervisor traps: a direct-mode vector saving every register (the interrupted code may be
//! anywhere), and one interrupt handler per program. Exceptions are bugs in these programs or
//! the machine, so they panic with the cause.

use core::sync::atomic::{AtomicUsize, Ordering};

pub const SSIP: usize = 1 << 1;
pub const STIP: usize = 1 << 5;
const SSTATUS_SIE: usize = 1 << 1;
const INTERRUPT: usize = 1 << 63;
/// Interrupt codes in scause.
pub const SOFTWARE: usize = 1;
pub const TIMER: usize = 5;

core::arch::global_asm!(
    r#"
    .section .text
    .align 4
    .globl rt_trap_vector
rt_trap_vector:
    addi sp, sp, -256
    .irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sd x\n, \n*8(sp)
    .endr
    call rt_trap
    .irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    ld x\n, \n*8(sp)
    .endr
    addi sp, sp, 256
    sret
"#
);

unsafe extern "C" {
    fn rt_trap_vector();
}

/// The program's interrupt handler, as a `fn(code)` address (0: none installed).
static HANDLER: AtomicUsize = AtomicUsize::new(0);

/// Installs `handler` for interrupts on the calling hart (and any hart that calls this later),
/// enables the interrupts in `sie_bits` and turns on sstatus.SIE.
pub fn enable(handler: fn(usize), sie_bits: usize) {
    HANDLER.store(handler as *const () as usize, Ordering::Release);
    unsafe {
        core::arch::asm!("csrw stvec, {}", in(reg) rt_trap_vector as *const () as usize);
        core::arch::asm!("csrs sie, {}", in(reg) sie_bits);
        core::arch::asm!("csrs sstatus, {}", in(reg) SSTATUS_SIE);
    }
}

pub fn sip() -> usize {
    let v;
    unsafe { core::arch::asm!("csrr {}, sip", out(reg) v) };
    v
}

pub fn clear_sip(bits: usize) {
    unsafe { core::arch::asm!("csrc sip, {}", in(reg) bits) };
}

#[unsafe(no_mangle)]
extern "C" fn rt_trap() {
    let (cause, epc, tval): (usize, usize, usize);
    unsafe {
        core::arch::asm!("csrr {}, scause", out(reg) cause);
        core::arch::asm!("csrr {}, sepc", out(reg) epc);
        core::arch::asm!("csrr {}, stval", out(reg) tval);
    }
    let handler = HANDLER.load(Ordering::Acquire);
    if cause & INTERRUPT == 0 || handler == 0 {
        panic!("unexpected trap: scause {cause:#x} sepc {epc:#x} stval {tval:#x}");
    }
    // SAFETY: only `enable` stores into HANDLER, always a `fn(usize)`.
    let handler: fn(usize) = unsafe { core::mem::transmute(handler) };
    handler(cause & !INTERRUPT);
}
