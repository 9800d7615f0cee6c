//! SBI IPI (to itself and to another hart) arrives as a supervisor software interrupt; RFENCE
//! calls are accepted.

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicUsize, Ordering};
use smode_rt::{devices, println, sbi, trap, wfi};

/// Software interrupts taken, per hart.
static TAKEN: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];
static READY: AtomicUsize = AtomicUsize::new(0);

fn hart_id() -> usize {
    let tp: usize;
    unsafe { core::arch::asm!("mv {}, tp", out(reg) tp) };
    tp
}

fn on_interrupt(code: usize) {
    if code == trap::SOFTWARE {
        trap::clear_sip(trap::SSIP);
        TAKEN[hart_id()].fetch_add(1, Ordering::AcqRel);
    }
}

fn wait_for(counter: &AtomicUsize, value: usize) {
    while counter.load(Ordering::Acquire) < value {
        core::hint::spin_loop();
    }
}

extern "C" fn second(hart: usize) -> ! {
    unsafe { core::arch::asm!("mv tp, {}", in(reg) hart) };
    trap::enable(on_interrupt, trap::SSIP);
    READY.store(1, Ordering::Release);
    while TAKEN[1].load(Ordering::Acquire) == 0 {
        wfi();
    }
    sbi::hart_stop();
    panic!("hart_stop returned");
}

#[unsafe(no_mangle)]
extern "C" fn kmain(hart: usize, _fdt: usize) -> ! {
    unsafe { core::arch::asm!("mv tp, {}", in(reg) hart) };
    trap::enable(on_interrupt, trap::SSIP);
    println!("self ipi: error {}", sbi::send_ipi(1, 0).error);
    wait_for(&TAKEN[0], 1);
    println!("hart 0 took its own ipi");
    sbi::hart_start(1, second);
    wait_for(&READY, 1);
    println!("ipi to hart 1: error {}", sbi::send_ipi(1, 1).error);
    wait_for(&TAKEN[1], 1);
    println!("hart 1 took the ipi; hart 0 took {}", TAKEN[0].load(Ordering::Acquire));
    println!("remote fence.i: error {}", sbi::remote_fence_i(0b11, 0).error);
    println!("remote sfence.vma: error {}", sbi::remote_sfence_vma(0b11, 0, 0, usize::MAX).error);
    devices::pass()
}
