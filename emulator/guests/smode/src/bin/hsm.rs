//! SBI HSM: start harts 1..3 one after another (each prints its id, then stops), read their
//! status, restart a stopped hart, and the errors for a running or absent hart.

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicUsize, Ordering};
use smode_rt::{devices, println, sbi};

/// Times each hart has run `worker`.
static RUNS: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];

extern "C" fn worker(hart: usize) -> ! {
    println!("hello from hart {hart}");
    RUNS[hart].fetch_add(1, Ordering::AcqRel);
    sbi::hart_stop();
    panic!("hart_stop returned on hart {hart}");
}

/// Starts `hart`, waits for it to finish its run and to reach STOPPED.
fn run_on(hart: usize) {
    let before = RUNS[hart].load(Ordering::Acquire);
    let ret = sbi::hart_start(hart, worker);
    if ret.error != 0 {
        panic!("hart_start({hart}) failed: {}", ret.error);
    }
    while RUNS[hart].load(Ordering::Acquire) == before {
        core::hint::spin_loop();
    }
    let mut polls = 0;
    while sbi::hart_status(hart).value != sbi::STOPPED {
        polls += 1;
        if polls == 1_000_000 {
            panic!("hart {hart} never reached STOPPED");
        }
    }
    println!("hart {hart} stopped");
}

#[unsafe(no_mangle)]
extern "C" fn kmain(hart: usize, _fdt: usize) -> ! {
    let status = sbi::hart_status(hart);
    println!("hart {hart} status {} (started is {})", status.value, sbi::STARTED);
    (1..4).for_each(run_on);
    run_on(1);
    println!("start the running hart 0: error {}", sbi::hart_start(0, worker).error);
    println!("status of absent hart 9: error {}", sbi::hart_status(9).error);
    println!("start absent hart 9: error {}", sbi::hart_start(9, worker).error);
    devices::pass()
}
