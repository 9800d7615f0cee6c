//! Times walks over two buffers with `rdcycle` and `rdinstret`: on Runqueue the cycles a walk
//! takes beyond its instructions are the ticks it stalled on data cache misses. A 64 KiB walk
//! (twice a 32 KiB cache) misses on every line, a 16 KiB one only on its first pass, and data
//! another hart wrote misses again: the cost of moving a task between harts.

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicUsize, Ordering};
use smode_rt::{devices, println, sbi};

const LINE: usize = 64;

#[repr(C, align(64))]
struct Buffer<const N: usize>([u8; N]);

static mut BIG: Buffer<{ 64 * 1024 }> = Buffer([0; 64 * 1024]);
static mut SMALL: Buffer<{ 16 * 1024 }> = Buffer([0; 16 * 1024]);
/// Where the two harts are: 1 = hart 1 may read, 2 = it has read, 3 = hart 0 has read again,
/// 4 = hart 1 has written.
static STEP: AtomicUsize = AtomicUsize::new(0);

/// Reads (or writes) one byte of each line of `len` bytes at `at`; returns the cycles beyond
/// the instructions, less the two that only the cycle count sees (its first read and the last
/// instret read).
fn walk(at: *mut u8, len: usize, write: bool) -> u64 {
    let (c0, i0, i1, c1): (u64, u64, u64, u64);
    // SAFETY: `at..at + len` is one of the buffers; the harts take turns with it (`STEP`).
    unsafe {
        if write {
            core::arch::asm!(
                "rdcycle {c0}", "rdinstret {i0}",
                "1: sb zero, 0({p})", "addi {p}, {p}, {line}", "bltu {p}, {end}, 1b",
                "rdinstret {i1}", "rdcycle {c1}",
                c0 = out(reg) c0, i0 = out(reg) i0, i1 = out(reg) i1, c1 = out(reg) c1,
                p = inout(reg) at => _, end = in(reg) at.add(len), line = const LINE,
            );
        } else {
            core::arch::asm!(
                "rdcycle {c0}", "rdinstret {i0}",
                "1: lb {t}, 0({p})", "addi {p}, {p}, {line}", "bltu {p}, {end}, 1b",
                "rdinstret {i1}", "rdcycle {c1}",
                c0 = out(reg) c0, i0 = out(reg) i0, i1 = out(reg) i1, c1 = out(reg) c1,
                t = out(reg) _, p = inout(reg) at => _, end = in(reg) at.add(len), line = const LINE,
            );
        }
    }
    (c1 - c0) - (i1 - i0) - 2
}

fn small() -> *mut u8 {
    (&raw mut SMALL).cast()
}

fn wait_for(step: usize) {
    while STEP.load(Ordering::Acquire) != step {
        core::hint::spin_loop();
    }
}

extern "C" fn second(_hart: usize) -> ! {
    wait_for(1);
    let (cold, warm) = (walk(small(), 16 * 1024, false), walk(small(), 16 * 1024, false));
    println!("hart 1 reads the 16 KiB hart 0 read: stalled {cold} cycles, then {warm}");
    STEP.store(2, Ordering::Release);
    wait_for(3);
    let wrote = walk(small(), 16 * 1024, true);
    println!("hart 1 writes it: stalled {wrote} cycles");
    STEP.store(4, Ordering::Release);
    sbi::hart_stop();
    panic!("hart_stop returned");
}

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, _fdt: usize) -> ! {
    let big: *mut u8 = (&raw mut BIG).cast();
    // The first pass only sets the scene (clearing the bss left some lines behind).
    walk(big, 64 * 1024, false);
    let (first, second_pass) = (walk(big, 64 * 1024, false), walk(big, 64 * 1024, false));
    println!("hart 0 reads 64 KiB: stalled {first} cycles, then {second_pass}");
    let (cold, warm) = (walk(small(), 16 * 1024, false), walk(small(), 16 * 1024, false));
    println!("hart 0 reads 16 KiB: stalled {cold} cycles, then {warm}");
    sbi::hart_start(1, second);
    STEP.store(1, Ordering::Release);
    wait_for(2);
    println!("hart 0 reads it again: stalled {} cycles", walk(small(), 16 * 1024, false));
    STEP.store(3, Ordering::Release);
    wait_for(4);
    println!("hart 0 reads what hart 1 wrote: stalled {} cycles", walk(small(), 16 * 1024, false));
    devices::pass()
}
