//! `rdtime` against `rdinstret`: on Runqueue one tick of mtime is exactly 10 instructions.

#![no_std]
#![no_main]

use smode_rt::{devices, println};

/// Iterations of a two-instruction loop.
const LOOPS: u64 = 100_000;

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, _fdt: usize) -> ! {
    let (t0, i0, t1, i1): (u64, u64, u64, u64);
    unsafe {
        core::arch::asm!(
            "rdtime {t0}",
            "rdinstret {i0}",
            "1: addi {n}, {n}, -1",
            "bnez {n}, 1b",
            "rdinstret {i1}",
            "rdtime {t1}",
            t0 = out(reg) t0, i0 = out(reg) i0, t1 = out(reg) t1, i1 = out(reg) i1,
            n = inout(reg) LOOPS => _,
        );
    }
    let (insns, ticks) = (i1 - i0, t1 - t0);
    println!("loop instructions within 2 of {}: {}", 2 * LOOPS, insns.abs_diff(2 * LOOPS) <= 2);
    println!("ticks x 10 within 20 of the instructions: {}", (ticks * 10).abs_diff(insns) <= 20);
    devices::pass()
}
