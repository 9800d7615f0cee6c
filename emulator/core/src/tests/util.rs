//! Helpers to boot hand-assembled programs.

use super::enc::*;
use crate::{Config, Machine, Stop};
use alloc::string::String;

pub const RAM: u64 = 0x8000_0000;
pub const KERNEL: u64 = 0x8020_0000;

/// An M-mode program at the start of RAM.
pub fn mmode(a: &Asm) -> Machine {
    Machine::new(Config::default(), &elf(RAM, &a.bytes, 0, &[])).expect("boots")
}

/// An S-mode program at the kernel address, with the emulator as SBI firmware.
pub fn smode(a: &Asm, config: Config) -> Machine {
    Machine::new(config, &elf(KERNEL, &a.bytes, 0, &[])).expect("boots")
}

/// Runs to the guest's exit; returns the exit code and the console.
pub fn finish(m: &mut Machine) -> (i32, String) {
    match m.run(50_000_000) {
        Stop::Exit(code) => (code, String::from_utf8_lossy(&m.take_console()).into_owned()),
        other => panic!("expected an exit, got {other:?}; console: {}", String::from_utf8_lossy(&m.take_console())),
    }
}

pub fn read_u64(m: &Machine, addr: u64) -> u64 {
    let mut b = [0; 8];
    m.read_phys(addr, &mut b).unwrap();
    u64::from_le_bytes(b)
}

/// The SBI call `ext`/`fid` with up to three arguments; results stay in a0/a1.
pub fn sbi(a: &mut Asm, ext: i64, fid: i64, args: &[i64]) {
    for (i, &v) in args.iter().enumerate() {
        a.li(A0 + i as u32, v);
    }
    a.li(A7, ext).li(A6, fid).emit(ECALL);
}

/// Shuts down through SBI SRST with reason `reason`.
pub fn sbi_exit(a: &mut Asm, reason: i64) {
    sbi(a, 0x5352_5354, 0, &[0, reason]);
}
