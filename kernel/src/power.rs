//! Ending the run with an exit code the host sees (`docs/platform.md`).

use crate::sbi;

const TEST_FINISHER: *mut u32 = 0x10_0000 as *mut u32;

/// How a run ends, as its exit code (`docs/kernel.md`, "Boot flow"): the one list of them.
#[derive(Clone, Copy)]
pub enum Exit {
    /// The workload finished (or `catalog` printed).
    Done = 0,
    /// The command line was refused: the message names the argument and what is accepted.
    BadArgs = 2,
    /// A kernel fault: an unexpected trap, a corrupt device tree, a broken table, a policy that
    /// broke the core's rules, a deadlock among the workload's tasks.
    Fault = 3,
}

/// Stops the machine with `code` through the SiFive test finisher, which QEMU and Runqueue
/// both map at 0x10_0000; SBI SRST is the fallback (it can only say success or failure).
pub fn exit(code: Exit) -> ! {
    let code = code as u32;
    let word = if code == 0 { 0x5555 } else { 0x3333 | (code << 16) };
    unsafe { TEST_FINISHER.write_volatile(word) };
    sbi::shutdown(code != 0);
    loop {
        crate::arch::wait_for_interrupt();
    }
}
