//! The trace device: one line handed over in bulk, one byte by byte.

#![no_std]
#![no_main]

use smode_rt::{boot, devices, println};

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, fdt: usize) -> ! {
    if !boot::fdt(fdt).find_compatible("runqueue,trace", |_| {}) {
        println!("no trace device");
        devices::fail(2);
    }
    devices::trace::write(b"T 100 0 mark 1 iter=1\n");
    devices::trace::write_bytes(b"T 200 0 mark 1 iter=2\n");
    println!("traced");
    devices::pass()
}
