//! Sv39 translation from S-mode: A/D updates, SUM, MXR, superpage alignment, canonical
//! addresses, and page-fault causes.

use super::enc::*;
use super::util::*;
use crate::Config;

const ROOT: u64 = RAM + 0x10_0000;
const L1: u64 = ROOT + 0x1000;
const L0: u64 = ROOT + 0x2000;
const LOG: u64 = RAM + 0x30_0000;
const HANDLER: usize = 0x400;
const V: u64 = 1;
const R: u64 = 2;
const W: u64 = 4;
const X: u64 = 8;
const U: u64 = 16;
const A: u64 = 64;
const D: u64 = 128;

fn pte(pa: u64, flags: u64) -> u64 {
    ((pa >> 12) << 10) | flags
}

fn put(m: &mut crate::Machine, addr: u64, value: u64) {
    m.write_phys(addr, &value.to_le_bytes()).unwrap();
}

#[test]
fn sv39_translation_and_permissions() {
    let mut a = Asm::default();
    a.la(T0, HANDLER as i32).emit(csrrw(0, 0x105, T0)).li(S1, LOG as i64);
    a.li(T0, ((8u64 << 60) | (ROOT >> 12)) as i64).emit(csrrw(0, 0x180, T0)).emit(sfence_vma(0, 0));
    a.li(S0, 0x4000_0000);
    a.emit(ld(18, S0, 0)); // 0: A set by hardware
    a.emit(sd(18, S0, 8)); // D set by hardware
    a.li(T2, 0x4000_3000).emit(ld(19, T2, 0)); // A only
    a.li(T1, 0x1000).emit(add(T2, S0, T1));
    a.emit(ld(20, T2, 0)); // U page without SUM: fault 1
    a.li(T1, 1 << 18).emit(csrrs(0, 0x100, T1)); // SUM
    a.emit(ld(21, T2, 0));
    a.li(T1, 0x2000).emit(add(T2, S0, T1));
    a.emit(ld(22, T2, 0)); // execute-only: fault 2
    a.li(T1, 1 << 19).emit(csrrs(0, 0x100, T1)); // MXR
    a.emit(ld(23, T2, 0));
    a.emit(sd(23, T2, 0)); // fault 3: not writable
    a.li(T2, 0xc000_0000).emit(ld(24, T2, 0)); // fault 4: misaligned gigapage
    a.li(T2, 0x80_0000_0000).emit(ld(24, T2, 0)); // fault 5: not canonical
    a.li(T2, 0x4000_4000).emit(ld(24, T2, 0)); // fault 6: invalid PTE
    a.emit(addi(25, S1, 0));
    sbi_exit(&mut a, 0);
    a.at(HANDLER);
    a.all(&[csrrs(T0, 0x142, 0), csrrs(T1, 0x143, 0), sd(T0, S1, 0), sd(T1, S1, 8), addi(S1, S1, 16)]);
    a.all(&[csrrs(T0, 0x141, 0), addi(T0, T0, 4), csrrw(0, 0x141, T0), SRET]);

    let mut m = smode(&a, Config::default());
    put(&mut m, ROOT + 2 * 8, pte(RAM, V | R | W | X | A | D));
    put(&mut m, ROOT + 8, pte(L1, V));
    put(&mut m, ROOT + 3 * 8, pte(RAM + 0x1000, V | R | A));
    put(&mut m, L1, pte(L0, V));
    put(&mut m, L0, pte(RAM + 0x40_0000, V | R | W));
    put(&mut m, L0 + 8, pte(RAM + 0x40_1000, V | R | W | U | A | D));
    put(&mut m, L0 + 16, pte(RAM + 0x40_2000, V | X | A));
    put(&mut m, L0 + 24, pte(RAM + 0x40_3000, V | R | W));
    for (i, v) in [11u64, 22, 33, 44].into_iter().enumerate() {
        put(&mut m, RAM + 0x40_0000 + 0x1000 * i as u64, v);
    }
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!(read_u64(&m, L0) & (A | D), A | D);
    assert_eq!(read_u64(&m, L0 + 24) & (A | D), A);
    assert_eq!(read_u64(&m, RAM + 0x40_0008), 11, "the store went through the mapping");
    assert_eq!((m.reg(0, 18), m.reg(0, 19), m.reg(0, 21), m.reg(0, 23)), (11, 44, 22, 33));
    let faults: alloc::vec::Vec<(u64, u64)> =
        (0..6).map(|i| (read_u64(&m, LOG + 16 * i), read_u64(&m, LOG + 16 * i + 8))).collect();
    assert_eq!(
        faults,
        [(13, 0x4000_1000), (13, 0x4000_2000), (15, 0x4000_2000), (13, 0xc000_0000), (13, 0x80_0000_0000), (13, 0x4000_4000)]
    );
    assert_eq!(m.reg(0, 25), LOG + 6 * 16, "exactly six faults");
}
