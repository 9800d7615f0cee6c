//! Work units: busy loops whose instruction count does not depend on the compiler.

use core::arch::asm;

/// Instructions per microsecond at the emulator's 100 MIPS.
pub const INSNS_PER_US: u64 = 100;

/// Executes `ns` worth of instructions at the emulator's speed: CPU time, not wall time (a
/// task preempted half-way finishes later).
pub fn spin_ns(ns: u64) {
    spin(ns * INSNS_PER_US / 1000);
}

/// Executes `insns` instructions (rounded down to even, plus a few for the call): a loop of
/// `addi` + `bnez`, two instructions per turn. At the emulator's 100 MIPS, 100_000 is 1 ms.
pub fn spin(insns: u64) {
    let turns = insns / 2;
    if turns == 0 {
        return;
    }
    unsafe {
        asm!("1: addi {n}, {n}, -1", "bnez {n}, 1b", n = inout(reg) turns => _, options(nomem, nostack));
    }
}

/// The largest working set a task may touch (`wl.working_set_kb`), and how many tasks may have
/// one: 2 MiB in all, in a section boot does not zero.
pub const MAX_WORKING_SET: usize = 64 * 1024;
pub const WORKING_SETS: usize = 32;
const LINE: usize = 64;

#[repr(C, align(64))]
struct WorkingSets([[u8; MAX_WORKING_SET]; WORKING_SETS]);

#[unsafe(link_section = ".workset")]
static mut SETS: WorkingSets = WorkingSets([[0; MAX_WORKING_SET]; WORKING_SETS]);

/// Reads and writes one word in each 64-byte line of the first `bytes` of working set `slot`,
/// as a task that keeps its data in a cache does: with the machine's cache model on, this is
/// fast on the hart that touched them last and misses everywhere else.
pub fn touch(slot: usize, bytes: usize) {
    let bytes = bytes.min(MAX_WORKING_SET);
    let base = unsafe { (&raw mut SETS.0[slot % WORKING_SETS]).cast::<u64>() };
    for line in 0..bytes / LINE {
        unsafe {
            let word = base.add(line * LINE / 8);
            word.write_volatile(word.read_volatile().wrapping_add(1));
        }
    }
}
