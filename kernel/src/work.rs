//! Work units: busy loops whose instruction count does not depend on the compiler.

use core::arch::asm;

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
