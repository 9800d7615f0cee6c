//! The QEMU equivalence program: its console bytes must be identical on Runqueue and on
//! `qemu-system-riscv64 -machine virt -bios default`, from the START line on.

#![no_std]
#![no_main]

use smode_rt::{boot, println, sbi};

/// CRC-32 (IEEE), bitwise: exercises shifts, branches and loads.
fn crc32(bytes: impl Iterator<Item = u8>) -> u32 {
    let mut crc = !0u32;
    for b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// Mixes multiply, divide and remainder, signed and unsigned.
fn arith(n: u64) -> u64 {
    (1..=n).fold(0u64, |acc, i| {
        let sq = i.wrapping_mul(i) % 1_000_003;
        let q = (acc as i64 - 7 * i as i64) / 3;
        acc.wrapping_add(sq ^ q as u64).rotate_left((i % 13) as u32)
    })
}

#[unsafe(no_mangle)]
extern "C" fn kmain(hart: usize, fdt: usize) -> ! {
    let fdt = boot::fdt(fdt);
    println!("START");
    println!("hart {hart}");
    println!("bootargs {}", boot::bootargs(&fdt));
    let data = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8);
    println!("checksum {:08x} {:016x}", crc32(data), arith(20_000));
    println!("bye");
    sbi::shutdown(0);
    panic!("SRST shutdown returned");
}
