//! Calls into the SBI firmware (OpenSBI on QEMU, the emulator itself on Runqueue).

use core::arch::asm;

const EXT_TIME: usize = 0x5449_4D45;
const EXT_IPI: usize = 0x73_5049;
const EXT_HSM: usize = 0x48_534D;
const EXT_SRST: usize = 0x5352_5354;

/// Returns (error, value) as the SBI calling convention defines them.
fn call(ext: usize, func: usize, a0: usize, a1: usize, a2: usize) -> (isize, usize) {
    let (err, val): (usize, usize);
    unsafe {
        asm!("ecall", inlateout("a0") a0 => err, inlateout("a1") a1 => val, in("a2") a2,
             in("a6") func, in("a7") ext);
    }
    (err as isize, val)
}

/// Raises this hart's timer interrupt once `time` reaches `deadline` (in 10 MHz ticks).
pub fn set_timer(deadline: u64) {
    call(EXT_TIME, 0, deadline as usize, 0, 0);
}

/// Sends a software interrupt to one hart (by its hart id).
pub fn send_ipi(hart_id: usize) {
    call(EXT_IPI, 0, 1, hart_id, 0);
}

/// Starts a stopped hart at `start` with a0 = its hart id and a1 = `opaque`.
pub fn hart_start(hart_id: usize, start: usize, opaque: usize) -> Result<(), isize> {
    match call(EXT_HSM, 0, hart_id, start, opaque) {
        (0, _) => Ok(()),
        (err, _) => Err(err),
    }
}

/// System reset: shutdown (type 0) with reason 0 (none) or 1 (failure).
pub fn shutdown(failure: bool) {
    call(EXT_SRST, 0, 0, failure as usize, 0);
}
