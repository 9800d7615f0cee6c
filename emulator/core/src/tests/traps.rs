//! Exceptions: causes, tval, epc, and instructions that must not trap.

use super::enc::*;
use super::util::*;

const HANDLER: usize = 0x400;
const LOG: u64 = RAM + 0x3000;

/// A program whose M-mode handler logs (mcause, mtval, mepc) at LOG and skips the faulting
/// 4-byte instruction. `body` runs with s1 = log pointer.
fn logged(body: impl FnOnce(&mut Asm)) -> crate::Machine {
    let mut a = Asm::default();
    a.la(T0, HANDLER as i32).emit(csrrw(0, 0x305, T0)).li(S1, LOG as i64);
    body(&mut a);
    a.exit(0);
    a.at(HANDLER);
    a.all(&[csrrs(T0, 0x342, 0), csrrs(T1, 0x343, 0), csrrs(T2, 0x341, 0)]);
    a.all(&[sd(T0, S1, 0), sd(T1, S1, 8), sd(T2, S1, 16), addi(S1, S1, 24)]);
    a.all(&[addi(T2, T2, 4), csrrw(0, 0x341, T2), MRET]);
    mmode(&a)
}

fn log(m: &crate::Machine, n: usize) -> (u64, u64, u64) {
    let at = LOG + 24 * n as u64;
    (read_u64(m, at), read_u64(m, at + 8), read_u64(m, at + 16))
}

#[test]
fn exception_causes_tval_and_epc() {
    let mut pcs = alloc::vec::Vec::new();
    let mut m = logged(|a| {
        let mut mark = |a: &mut Asm| pcs.push(RAM + a.here() as u64);
        mark(a);
        a.emit(0xffff_ffff); // illegal
        mark(a);
        a.emit(EBREAK);
        mark(a);
        a.emit(ECALL);
        mark(a);
        a.emit(ld(A0, 0, 8)); // load from address 8: no device
        a.li(A1, 0x2000_0001);
        mark(a);
        a.emit(sw(A0, A1, 0)); // store to nothing
        a.li(A1, (RAM + 0x5001) as i64);
        mark(a);
        a.emit(amo(0b00010, 3, A0, A1, 0)); // lr.d misaligned
        mark(a);
        a.emit(amo(0b00000, 2, A0, A1, A2)); // amoadd.w misaligned
        mark(a);
        a.emit(csrrs(A0, 0x7c0, 0)); // no such CSR
        mark(a);
        a.emit(csrrw(0, 0xf14, A0)); // mhartid is read-only
    });
    assert_eq!(finish(&mut m).0, 0);
    let expected = [
        (2, 0xffff_ffff),
        (3, pcs[1]),
        (11, 0),
        (5, 8),
        (7, 0x2000_0001),
        (4, RAM + 0x5001),
        (6, RAM + 0x5001),
        (2, csrrs(A0, 0x7c0, 0) as u64),
        (2, csrrw(0, 0xf14, A0) as u64),
    ];
    for (n, (cause, tval)) in expected.into_iter().enumerate() {
        assert_eq!(log(&m, n), (cause, tval, pcs[n]), "trap {n}");
    }
}

#[test]
fn misaligned_loads_and_stores_do_not_trap() {
    let mut a = Asm::default();
    a.li(A1, (RAM + 0x2ffd) as i64).li(A0, 0x1122_3344_5566_7788);
    a.emit(sd(A0, A1, 0)); // crosses into the next page
    a.emit(ld(A2, A1, 0));
    a.emit(lw(13, A1, 1));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!(m.reg(0, A2 as usize), 0x1122_3344_5566_7788);
    assert_eq!(m.reg(0, 13), 0x4455_6677, "bytes 1..5 of the stored value");
}

#[test]
fn a_trap_handler_that_cannot_be_fetched_is_a_fault() {
    let mut a = Asm::default();
    a.li(T0, 0x10).emit(csrrw(0, 0x305, T0)).emit(0xffff_ffff);
    let mut m = mmode(&a);
    match m.run(1000) {
        crate::Stop::Fault(f) => assert!(f.what.contains("0x10"), "{f}"),
        other => panic!("{other:?}"),
    }
}
