//! CSR behaviour (WARL fields, views, access rules) and interrupt delivery.

use super::enc::*;
use super::util::*;

/// Writes `value` to `csr` and reads it back into x`into`.
fn write_read(a: &mut Asm, csr: u32, value: i64, into: u32) {
    a.li(T0, value).emit(csrrw(0, csr, T0)).emit(csrrs(into, csr, 0));
}

#[test]
fn warl_fields_and_views() {
    let mut a = Asm::default();
    a.emit(csrrs(18, 0x301, 0)); // misa
    write_read(&mut a, 0x300, 0x1000 | (1 << 18) | 0xa, 19); // mstatus: MPP=2 -> U; SUM; MIE|SIE
    a.emit(csrrs(20, 0x100, 0)); // sstatus view
    write_read(&mut a, 0x305, 0x8000_1002, 21); // mtvec mode 2 -> direct
    write_read(&mut a, 0x305, 0x8000_1001, 22); // vectored
    write_read(&mut a, 0x341, 0x8000_1003, 23); // mepc bit 0
    write_read(&mut a, 0x302, -1, 24); // medeleg
    write_read(&mut a, 0x303, -1, 25); // mideleg
    write_read(&mut a, 0x304, -1, 26); // mie
    a.emit(csrrs(27, 0x104, 0)); // sie = mie & mideleg
    write_read(&mut a, 0x144, -1, 28); // sip: only SSIP
    write_read(&mut a, 0x180, (9 << 60) | 5, 29); // satp: Sv48 unsupported, ignored
    write_read(&mut a, 0x180, (8 << 60) | 5, 30); // Sv39
    a.li(T0, 0).emit(csrrw(0, 0x180, T0));
    write_read(&mut a, 0x3b0, -1, 31); // pmpaddr0: bits 53..0
    a.li(T0, 1000).emit(csrrw(0, 0xb02, T0)).emit(csrrs(S0, 0xb02, 0)); // minstret
    a.emit(csrrs(S1, 0xf14, 0));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    let r = |i| m.reg(0, i);
    assert_eq!(r(18), (2 << 62) | 0x14_1105, "RV64 ACIMSU");
    assert_eq!(r(19), (2 << 32) | (2 << 34) | (1 << 18) | 0xa, "MPP=2 is not kept");
    assert_eq!(r(20), (2 << 32) | (1 << 18) | 0x2, "sstatus shows SIE, SUM, UXL");
    assert_eq!((r(21), r(22), r(23)), (0x8000_1000, 0x8000_1001, 0x8000_1002));
    assert_eq!((r(24), r(25), r(26), r(27), r(28)), (0xb3ff, 0x222, 0xaaa, 0x222, 0x2));
    assert_eq!((r(29), r(30), r(31)), (0, (8 << 60) | 5, (1 << 54) - 1));
    assert_eq!((r(8), r(9)), (1000, 0), "the next instruction reads the value written to minstret");
    assert_eq!(m.csr(0, 0x344), Some(2));
    assert_eq!(m.csr(0, 0x7c0), None);
}

/// M-mode enters S-mode, which tries counters and M-only CSRs; U-mode then ecalls.
#[test]
fn privilege_rules_and_delegation() {
    const M_HANDLER: usize = 0x400;
    const S_CODE: usize = 0x500;
    const S_HANDLER: usize = 0x600;
    const U_CODE: usize = 0x700;
    let mut a = Asm::default();
    a.la(T0, M_HANDLER as i32).emit(csrrw(0, 0x305, T0));
    a.li(T0, -1).emit(csrrw(0, 0x3b0, T0)).li(T0, 0x1f).emit(csrrw(0, 0x3a0, T0)); // PMP: S and U may use all memory
    a.li(T0, 1 << 8).emit(csrrw(0, 0x302, T0)); // delegate U ecalls
    a.li(T0, 1).emit(csrrw(0, 0x306, T0)); // mcounteren: cycle only
    a.li(T0, 1 << 11).emit(csrrs(0, 0x300, T0)); // MPP = S
    a.la(T0, S_CODE as i32).emit(csrrw(0, 0x341, T0)).emit(MRET);
    a.at(M_HANDLER);
    // Log mcause into s-registers in order: s2, s3, ...; skip the instruction; ecall from S exits.
    a.emit(csrrs(T0, 0x342, 0)).emit(sd(T0, S1, 0)).emit(addi(S1, S1, 8));
    a.li(T1, 9);
    let skip = a.hole();
    a.exit(0);
    a.patch(skip, bne(T0, T1, a.here() - skip));
    a.emit(csrrs(T0, 0x341, 0)).emit(addi(T0, T0, 4)).emit(csrrw(0, 0x341, T0)).emit(MRET);
    a.at(S_CODE);
    a.li(S1, (RAM + 0x3000) as i64);
    a.emit(csrrs(18, 0xc00, 0)); // cycle: allowed
    a.emit(csrrs(19, 0xc02, 0)); // instret: not enabled -> illegal (to M)
    a.emit(csrrs(20, 0x300, 0)); // mstatus from S -> illegal
    a.emit(MRET); // mret from S -> illegal
    a.la(T0, S_HANDLER as i32).emit(csrrw(0, 0x105, T0));
    a.la(T0, U_CODE as i32).emit(csrrw(0, 0x141, T0)).emit(SRET); // SPP is U: mret left it clear
    a.at(S_HANDLER);
    a.emit(csrrs(21, 0x142, 0)).emit(csrrs(22, 0x100, 0)).emit(ECALL); // S ecall -> M exits
    a.at(U_CODE);
    a.emit(csrrs(23, 0xc00, 0)); // cycle in U: scounteren is 0 -> illegal (to M)
    a.emit(ECALL); // delegated to S
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    let log: alloc::vec::Vec<u64> = (0..5).map(|i| read_u64(&m, RAM + 0x3000 + 8 * i)).collect();
    assert_eq!(log, [2, 2, 2, 2, 9], "instret, mstatus, mret from S, cycle from U, then the S ecall");
    assert_eq!(m.reg(0, 21), 8, "U ecall delegated to S");
    assert_eq!(m.reg(0, 22) & (1 << 8), 0, "SPP = U");
}

/// Pending MSI and MTI together: MSI first; vectored mode adds 4 * cause.
#[test]
fn interrupt_priority_and_vectoring() {
    const VECTORS: usize = 0x400;
    let mut a = Asm::default();
    a.la(T0, VECTORS as i32).emit(addi(T0, T0, 1)).emit(csrrw(0, 0x305, T0));
    a.li(S0, 0x200_0000).li(T1, 1).emit(sw(T1, S0, 0)); // msip
    a.li(T1, 0x4000).emit(add(T2, S0, T1)).emit(sd(0, T2, 0)); // mtimecmp = 0: MTIP
    a.li(T0, 0x88).emit(csrrw(0, 0x304, T0)); // mie: MSIE | MTIE
    a.li(S1, 0);
    a.emit(csrrsi(0, 0x300, 8)); // MIE: interrupts taken here
    a.emit(jal(0, 0)); // wait here
    a.at(VECTORS + 3 * 4);
    a.emit(jal(0, 0x40 - 12)); // MSI vector -> msi handler at +0x40
    a.at(VECTORS + 7 * 4);
    a.emit(jal(0, 0x80 - 28)); // MTI vector -> mti handler at +0x80
    a.at(VECTORS + 0x40);
    a.emit(csrrs(18, 0x342, 0)).emit(sw(0, S0, 0)).emit(addi(S1, S1, 1)).emit(MRET);
    a.at(VECTORS + 0x80);
    a.emit(csrrs(19, 0x342, 0)).emit(addi(20, S1, 0)).emit(csrrs(21, 0x300, 0));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!((m.reg(0, 18), m.reg(0, 19)), ((1 << 63) | 3, (1 << 63) | 7));
    assert_eq!(m.reg(0, 20), 1, "MSI was handled before MTI");
    assert_eq!(m.reg(0, 21) & 0x88, 0x80, "in the handler: MIE clear, MPIE set");
}
