//! SBI DBCN console_write and console_write_byte, and the legacy console_putchar.

#![no_std]
#![no_main]

use smode_rt::{devices, println, sbi};

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, _fdt: usize) -> ! {
    let ret = sbi::console_write(b"dbcn write\n");
    println!("wrote {} error {}", ret.value, ret.error);
    for &b in b"byte\n" {
        sbi::console_write_byte(b);
    }
    for &b in b"legacy putchar\n" {
        sbi::legacy(sbi::LEGACY_PUTCHAR, b as usize);
    }
    devices::pass()
}
