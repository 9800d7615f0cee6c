//! SBI TIME (and legacy set_timer): each timer fires as a supervisor timer interrupt no earlier
//! than asked, set_timer(u64::MAX) clears STIP, and a hart in `wfi` sleeps without running.

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicU64, Ordering};
use smode_rt::{devices, println, rdinstret, rdtime, sbi, trap, wfi};

/// The `time` at which the last timer interrupt was taken (0: none since cleared).
static FIRED_AT: AtomicU64 = AtomicU64::new(0);

fn on_interrupt(code: usize) {
    if code == trap::TIMER {
        sbi::set_timer(u64::MAX);
        FIRED_AT.store(rdtime(), Ordering::Release);
    }
}

/// Arms the timer `delay` ticks ahead with `arm`, sleeps until it fires; says if it was on time
/// and whether the sleep ran far fewer instructions than the ticks that passed.
fn sleep(delay: u64, arm: impl Fn(u64)) -> (bool, bool) {
    FIRED_AT.store(0, Ordering::Release);
    let target = rdtime() + delay;
    let start = rdinstret();
    arm(target);
    while FIRED_AT.load(Ordering::Acquire) == 0 {
        wfi();
    }
    let ran = rdinstret() - start;
    (FIRED_AT.load(Ordering::Acquire) >= target, ran < delay * 10 / 4)
}

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, _fdt: usize) -> ! {
    trap::enable(on_interrupt, trap::STIP);
    for i in 0..3 {
        let (on_time, idle) = sleep(5_000 * (i + 1), |t| {
            sbi::set_timer(t);
        });
        println!("timer {i}: on time {on_time}, slept {idle}");
    }
    let (on_time, _) = sleep(2_000, |t| {
        sbi::legacy(sbi::LEGACY_SET_TIMER, t as usize);
    });
    println!("legacy timer: on time {on_time}");
    println!("stip after clearing: {}", trap::sip() & trap::STIP != 0);
    devices::pass()
}
