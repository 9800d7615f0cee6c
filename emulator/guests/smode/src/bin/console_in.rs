//! Console input through the 16550 registers and the legacy SBI getchar. The host pushes "ab"
//! before the run, and "xyz\n" once it sees "waiting".

#![no_std]
#![no_main]

use smode_rt::devices::uart;
use smode_rt::{devices, println, sbi};

fn lsr() -> (bool, bool) {
    let lsr = uart::read(uart::LSR);
    (lsr & uart::LSR_THRE != 0, lsr & uart::LSR_DR != 0)
}

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, _fdt: usize) -> ! {
    uart::write(uart::SCR, 0x5a);
    println!("scratch {:02x}", uart::read(uart::SCR));
    let (thre, dr) = lsr();
    println!("lsr thre {thre} dr {dr}");
    let (a, b) = (uart::read(uart::RBR), uart::read(uart::RBR));
    println!("read {}{}", a as char, b as char);
    let (thre, dr) = lsr();
    println!("lsr thre {thre} dr {dr}");
    println!("getchar with nothing: {}", sbi::legacy(sbi::LEGACY_GETCHAR, 0));
    println!("waiting");
    let mut line = [0u8; 16];
    let mut len = 0;
    while len < line.len() {
        let c = sbi::legacy(sbi::LEGACY_GETCHAR, 0);
        if c < 0 {
            continue;
        }
        if c as u8 == b'\n' {
            break;
        }
        line[len] = c as u8;
        len += 1;
    }
    println!("line {}", core::str::from_utf8(&line[..len]).unwrap_or("<not utf-8>"));
    devices::pass()
}
