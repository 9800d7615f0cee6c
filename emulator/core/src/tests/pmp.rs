//! PMP: the matching rules of `pmp.rs`, and the firmware's entry for S-mode ELFs.
//! The ISA program `emulator/guests/isa/asm/pmp.S` checks the rest from inside the machine.

use super::enc::*;
use super::util::*;
use crate::pmp::{Pmp, R, W, X};
use crate::{Config, Machine, Stop};
use alloc::vec::Vec;

const TOR: u64 = 1 << 3;
const NA4: u64 = 2 << 3;
const NAPOT: u64 = 3 << 3;
const L: u64 = 1 << 7;
const PAGE: u64 = 4096;

#[test]
fn no_entry_lets_only_m_mode_through() {
    let p = Pmp::default();
    assert!(p.allows(RAM, 8, R, true));
    assert!(!p.allows(RAM, 8, R, false));
}

#[test]
fn address_modes_priority_and_partial_matches() {
    let mut p = Pmp::default();
    p.write_addr(0, 0x1000 >> 2); // NA4 at 0x1000, R
    p.write_addr(1, 0x2000 >> 2); // TOR 0x1000..0x2000 (bottom: pmpaddr0), RW
    p.write_addr(2, (RAM >> 2) | 0x1fff); // NAPOT: 13 trailing ones = 64 KiB at RAM, X
    p.write_cfg(0, (NA4 | R as u64) | (TOR | (R | W) as u64) << 8 | (NAPOT | X as u64) << 16);
    assert!(p.allows(0x1000, 4, R, false));
    assert!(!p.allows(0x1000, 4, W, false), "entry 0 wins over entry 1");
    assert!(!p.allows(0x1000, 8, R, false), "only 4 of the 8 bytes are in entry 0");
    assert!(p.allows(0x1004, 8, W, false));
    assert!(!p.allows(0x1ffc, 8, R, false), "4 bytes past the TOR top");
    assert!(!p.allows(0xffc, 4, R, false), "below the TOR bottom");
    assert!(p.allows(RAM + 0xfffe, 2, X, false));
    assert!(!p.allows(RAM + 0x1_0000, 2, X, false));
    // A whole page: true only when one answer holds for every access in it.
    assert!(!p.allows(0x1000, PAGE, R, false), "entry 0 covers part of the page");
    assert!(p.allows(RAM, PAGE, X, false));
    assert!(!p.allows(RAM, PAGE, R, false));
    assert!(p.allows(RAM, PAGE, R, true), "M-mode: the entry is not locked");
    assert!(p.allows(0x5000, PAGE, W, true), "M-mode: no entry matches");
    // TOR with top <= bottom matches nothing; a top of 0 too.
    p.write_addr(1, 0x800 >> 2);
    assert!(!p.allows(0x1004, 4, R, false));
    p.write_addr(0, 0);
    p.write_addr(1, 0);
    p.write_cfg(0, TOR | (R | W | X) as u64);
    assert!(!p.allows(0, 4, R, false));
    // All 54 address bits set: NAPOT over the whole physical address space.
    p.write_addr(0, u64::MAX);
    p.write_cfg(0, NAPOT | R as u64);
    assert_eq!(p.read_addr(0), (1 << 54) - 1);
    assert!(p.allows(0, PAGE, R, false) && p.allows((1 << 56) - PAGE, PAGE, R, false));
}

#[test]
fn warl_configuration_and_locks() {
    let mut p = Pmp::default();
    // Reserved bits 6..5 read zero; W without R loses W.
    p.write_cfg(0, 0x60 | R as u64 | (NA4 | (W | X) as u64) << 8);
    assert_eq!(p.read_cfg(0), R as u64 | (NA4 | X as u64) << 8);
    // A locked entry keeps its byte and its address; so does the address below a locked TOR.
    p.write_addr(8, 0x100);
    p.write_addr(10, 0x200);
    p.write_addr(11, 0x300);
    p.write_cfg(2, (L | NA4 | R as u64) | (L | TOR | R as u64) << 24);
    p.write_cfg(2, 0);
    p.write_addr(8, 0);
    p.write_addr(10, 0);
    p.write_addr(11, 0);
    p.write_addr(9, 0x77);
    assert_eq!(p.read_cfg(2), (L | NA4 | R as u64) | (L | TOR | R as u64) << 24);
    assert_eq!([p.read_addr(8), p.read_addr(9), p.read_addr(10), p.read_addr(11)], [0x100, 0x77, 0x200, 0x300]);
    // Locked entries hold M-mode too.
    assert!(p.allows(0x400, 4, R, true) && !p.allows(0x400, 4, W, true));
    assert!(p.allows(0x800, 8, R, true) && !p.allows(0x800, 8, X, true));
}

#[test]
fn firmware_lets_the_kernel_use_all_memory() {
    let mut a = Asm::default();
    sbi_exit(&mut a, 0);
    let m = smode(&a, Config::default());
    assert_eq!(m.csr(0, 0x3a0), Some(NAPOT | (R | W | X) as u64));
    assert_eq!(m.csr(0, 0x3b0), Some((1 << 54) - 1));
    assert_eq!(m.csr(0, 0x3a1), None, "pmpcfg1 does not exist on RV64");
}

/// A program that locks entry 0 (read-only over one page) and waits for the host; when told
/// to go on it stores into that page, and exits with the store's mcause.
fn locked_store_program() -> Vec<u8> {
    const HANDLER: usize = 0x400;
    const FLAG: u64 = 0x2000;
    const LOCKED: u64 = 0x3000;
    let mut a = Asm::default();
    a.la(T0, HANDLER as i32).emit(csrrw(0, 0x305, T0));
    a.li(T0, ((RAM + LOCKED) >> 2 | 0x1ff) as i64).emit(csrrw(0, 0x3b0, T0)); // NAPOT, 4 KiB
    a.li(T0, (L | NAPOT | R as u64) as i64).emit(csrrw(0, 0x3a0, T0));
    a.li(S0, (RAM + FLAG) as i64);
    let wait = a.here();
    a.emit(lw(T1, S0, 0));
    let back = wait - a.here();
    a.emit(beq(T1, 0, back));
    a.li(S1, (RAM + LOCKED) as i64).emit(sw(T1, S1, 0));
    a.exit(0);
    a.at(HANDLER);
    a.emit(csrrs(A0, 0x342, 0)).emit(slli(A0, A0, 16)).li(T1, 0x3333).emit(add(T1, T1, A0));
    a.li(T0, 0x10_0000).emit(sw(T1, T0, 0));
    a.at(LOCKED as usize + PAGE as usize);
    elf(RAM, &a.bytes, 0, &[])
}

#[test]
fn a_locked_entry_binds_m_mode_too() {
    let mut m = mmode_elf(&locked_store_program());
    assert_eq!(m.run(10_000), Stop::Budget);
    assert_eq!(m.csr(0, 0x3a0), Some(L | NAPOT | R as u64));
    m.write_phys(RAM + 0x2000, &1u32.to_le_bytes()).unwrap();
    assert_eq!(m.run(10_000), Stop::Exit(7), "the locked entry refuses M-mode's store");
}

fn mmode_elf(elf: &[u8]) -> Machine {
    Machine::new(Config::default(), elf).expect("boots")
}
